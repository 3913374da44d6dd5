// What insights-reporter promises about its secrets and about receivers that misbehave, written
// down once (issue 35); each promise names where it is kept.
//
// 1. No configured secret is printed, logged or stored. Every secret field the config schema
//    declares (secret-text.ts marks them; config/secret-paths.ts lists them: the insights API
//    key, Slack's bot and app tokens, SMTP_URL's password, each webhook's URL and secret, each
//    Teams workflow URL, DATABASE_URL's password, and whatever a destination declares later)
//    is replaced by `[redacted]` in every error that leaves a client (`redactingErrors`,
//    applied where clients are built: create-deps.ts) — so in `run`'s and the daemon's output,
//    their logs, the ledger's `deliveries.last_error` and `history` — even when a receiver
//    answers with an error quoting our Authorization header. `history` scrubs what an older
//    version stored, too.
// 2. No redirect is followed with a secret on board: a webhook's or Teams' 3xx is a failure
//    that names the Location's origin only (deliver/http-post.ts); the insights API's is refused
//    too (insights/send-attempt.ts), so the key never travels to another host.
// 3. No answer is read without a bound: a webhook's or Teams' answer is not read at all on a
//    2xx and to 4 KiB at most on a failure (deliver/http-post.ts), the insights API's error
//    bodies to 4 KiB (insights/send-attempt.ts), its data to api.max_response_bytes, Slack's
//    answers to 8 MiB (a page of channel history may be MBs: destinations/slack/slack-client.ts);
//    past the bound the connection is dropped, not drained.
// 4. A receiver's body reaches an error only as a short excerpt (≤ 200 characters) with
//    control characters removed, configured secrets and every header value we sent (the
//    signature, the Idempotency-Key) redacted (deliver/http-post.ts).
// 5. A file given as --config that is not a YAML mapping is named by its kind, never quoted: it
//    may be a token file (config/load-config.ts).
import { resolvedSecretValues, secretForms } from "./config/secret-fields.js";
import { SECRET_PATHS } from "./config/secret-paths.js";
import { redactSecrets } from "./secret.js";

/** Text with secrets replaced by `[redacted]`. */
export type Redact = (text: string) => string;

/** Shorter values are not scrubbed: replacing "ab" everywhere would garble every message. */
const MIN_SECRET_LENGTH = 4;

/** The redaction of every secret a resolved config holds, in each form it travels in. */
export function configRedactor(config: unknown): Redact {
  const secrets = resolvedSecretValues(config, SECRET_PATHS).flatMap(secretForms);
  return (text) => redactSecrets(text, secrets, MIN_SECRET_LENGTH);
}

/**
 * `error` with secrets redacted from its message, stack and string fields (a ReporterError's
 * context, a SlackDeliveryError's `slackError`), in place so that its type and verdict stay.
 * Anything thrown that is not an Error becomes one, its text redacted.
 */
export function redactError(error: unknown, redact: Redact): Error {
  if (!(error instanceof Error)) return new Error(redact(String(error)));
  error.message = redact(error.message);
  if (error.stack) error.stack = redact(error.stack);
  const fields = error as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") fields[name] = redact(value);
    else if (name === "context" && isRecord(value)) fields[name] = redactRecord(value, redact);
  }
  return error;
}

/**
 * `client` whose methods reject (or throw) only with redacted errors: a receiver that quotes
 * our request back, a library that puts a URL in its message, never carry a secret past here.
 */
export function redactingErrors<T extends object>(client: T, redact: Redact): T {
  return new Proxy(client, {
    get(target, property) {
      // Read off the target itself: a getter over a private field fails through a proxy.
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        try {
          const result: unknown = value.apply(target, args);
          return result instanceof Promise
            ? result.catch((error: unknown) => {
                throw redactError(error, redact);
              })
            : result;
        } catch (error) {
          throw redactError(error, redact);
        }
      };
    },
  });
}

function redactRecord(record: Record<string, unknown>, redact: Redact): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key,
      typeof value === "string" ? redact(value) : value,
    ]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
