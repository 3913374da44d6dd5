import { type Logger as PinoLogger, pino } from "pino";
import pretty from "pino-pretty";

export type Logger = PinoLogger;

/**
 * The process logger: JSON lines on stderr, or pretty lines when stderr is a TTY. Secrets are
 * `Secret` objects that print as [redacted]; the redact paths are a second belt for anything
 * that slips through as a plain string.
 */
export function createLogger(
  options: { level?: string; pretty?: boolean; destination?: NodeJS.WritableStream } = {},
): Logger {
  const destination = options.destination ?? process.stderr;
  const usePretty =
    options.pretty ?? (process.stderr.isTTY === true && destination === process.stderr);
  const base = {
    level: options.level ?? "info",
    base: undefined,
    redact: {
      paths: [
        "key",
        "token",
        "smtpUrl",
        "*.key",
        "*.token",
        "*.smtpUrl",
        "headers.authorization",
        "headers['x-api-key']",
      ],
      censor: "[redacted]",
    },
  };
  if (usePretty) {
    return pino(base, pretty({ destination, sync: true, colorize: true, ignore: "pid,hostname" }));
  }
  return pino(base, destination);
}

/** A logger that drops everything, for tests and quiet commands. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
