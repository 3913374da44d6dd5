import type { Logger as LibraryLogger, LogLevel } from "@slack/web-api";
import { redactSecrets, type Secret } from "../../secret.js";

/** The one logging call the Slack adapters need; a pino logger fits. */
export interface SlackLogger {
  warn(obj: object, msg: string): void;
}

/**
 * A Slack SDK client's logger over ours (the Web API's, and Socket Mode's: both take
 * @slack/logger's): debug and info dropped (every payload, every ping); warnings and errors
 * forwarded as one warning, `message`, with `token` scrubbed, unless `skip` matches one that is
 * someone else's to report.
 */
export function slackLibraryLogger(
  logger: SlackLogger | undefined,
  token: Secret,
  message: string,
  skip?: RegExp,
): LibraryLogger {
  // The type only: this file loads no SDK (the daemon's Socket Mode loads its own on start).
  let level = "warn" as LogLevel;
  const forward = (args: unknown[]) => {
    if (!logger) return;
    const detail = args.map((a) => (a instanceof Error ? a.message : String(a))).join(" ");
    if (skip?.test(detail)) return;
    logger.warn({ detail: redactSecrets(detail, [token.reveal()]) }, message);
  };
  return {
    debug: () => {},
    info: () => {},
    warn: (...args: unknown[]) => forward(args),
    error: (...args: unknown[]) => forward(args),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
