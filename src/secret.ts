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

/**
 * The text forms a secret travels in: the value; a URL's password as written and decoded; and,
 * as a receiver may echo the request it got, a URL's path with its query (where a Teams
 * workflow's `sig=` or a webhook's token sits) and each query value, as written and decoded.
 */
export function secretForms(value: string): string[] {
  const forms = [value];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return forms; // Not a URL: the whole value is already listed.
  }
  if (url.password) forms.push(url.password, safeDecode(url.password));
  const request = `${url.pathname}${url.search}`;
  if (request.length >= MIN_REQUEST_FORM) forms.push(request, safeDecode(request));
  for (const raw of url.search.slice(1).split("&")) {
    const written = raw.slice(raw.indexOf("=") + 1);
    if (raw.includes("=") && written.length >= MIN_QUERY_VALUE) {
      forms.push(written, safeDecode(written));
    }
  }
  return forms;
}

// Below these, a path (`/hooks`) or a query value (`en`) is too common a word to redact.
const MIN_REQUEST_FORM = 16;
const MIN_QUERY_VALUE = 8;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
