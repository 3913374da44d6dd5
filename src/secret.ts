import { inspect } from "node:util";

/**
 * A secret value (API key, bot token, SMTP URL with a password). It prints as `[redacted]`
 * in every way an object can be printed — string conversion, JSON, util.inspect, pino — so a
 * config object can be logged or thrown without leaking. Only `reveal()` gives the value.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The real value, for the one adapter that sends it. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return "[redacted]";
  }

  toJSON(): string {
    return "[redacted]";
  }

  [inspect.custom](): string {
    return "[redacted]";
  }
}

/**
 * `text` with every secret replaced by `[redacted]`, as written and percent-encoded, longest
 * first so a secret containing another goes whole. Values shorter than `minLength` are left:
 * replacing "ab" everywhere would garble every message.
 */
export function redactSecrets(
  text: string,
  secrets: readonly (string | null | undefined)[],
  minLength = 1,
): string {
  const forms = new Set(
    secrets.flatMap((secret) => (secret ? [secret, encodeURIComponent(secret)] : [])),
  );
  return [...forms]
    .filter((form) => form.length >= Math.max(1, minLength))
    .sort((a, b) => b.length - a.length)
    .reduce((out, form) => out.split(form).join("[redacted]"), text);
}
