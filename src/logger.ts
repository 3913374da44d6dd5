import { createRequire } from "node:module";
import { type Logger as PinoLogger, pino } from "pino";
import type PinoPretty from "pino-pretty";

export type Logger = PinoLogger;

/** The process logger: JSON lines on stderr, or pretty lines when stderr is a TTY. */
export function createLogger(
  options: {
    level?: string;
    pretty?: boolean;
    destination?: NodeJS.WritableStream;
    /** Config paths of secrets (`SECRET_LOG_PATHS`, read off the config schema). */
    secretPaths?: readonly string[];
  } = {},
): Logger {
  const destination = options.destination ?? process.stderr;
  const usePretty =
    options.pretty ?? (process.stderr.isTTY === true && destination === process.stderr);
  const base = {
    level: options.level ?? "info",
    base: undefined,
    redact: {
      // Secrets are `Secret` objects and print as [redacted] by their type. These paths are a
      // second belt for the places a secret could travel as a plain string: the resolved
      // config's credentials and HTTP headers. A field merely named `key` (a slot key) is news.
      paths: [
        ...(options.secretPaths ?? []),
        "headers.authorization",
        "headers['x-api-key']",
        "*.headers.authorization",
        "*.headers['x-api-key']",
      ],
      censor: "[redacted]",
    },
  };
  if (usePretty) {
    // Required here, not imported above: a daemon whose log goes to a file or a collector never
    // loads pino-pretty (some 10 MB of resident memory).
    const pretty = createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
    return pino(base, pretty({ destination, sync: true, colorize: true, ignore: "pid,hostname" }));
  }
  return pino(base, destination);
}

/** A logger that drops everything, for tests and quiet commands. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
