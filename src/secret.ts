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
