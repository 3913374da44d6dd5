// What a secret may hold, decided where it is loaded: a value the HTTP client cannot send
// used to reach undici, which refused the header and then left later requests hanging. And the
// schema marks that say a config field holds a secret: below config/, so a destination module
// declares its own secret fields (config/secret-fields.ts reads the marks off the schema).
import * as z from "zod";

/** Why a secret cannot be used: a control character, or (in a header) one outside Latin-1. */
export type SecretTextProblem = "control" | "not-latin1";

/**
 * A secret as given, without what editors, `echo` and CRLF env files add around it: a leading
 * byte-order mark and surrounding whitespace (`trim` removes both). No key or token has them.
 */
export function cleanSecretText(text: string): string {
  return text.trim();
}

/** The first reason `value` cannot be used as a secret, or null when it can. */
export function secretTextProblem(value: string, inHeader: boolean): SecretTextProblem | null {
  if (/\p{Cc}/u.test(value)) return "control";
  // HTTP header values are bytes; undici refuses anything past U+00FF.
  if (inHeader && /[\u0100-\u{10ffff}]/u.test(value)) return "not-latin1";
  return null;
}

/** The schema's check for a value written into the config file itself. */
function isHeaderSafe(value: string): boolean {
  return secretTextProblem(value, true) === null;
}

/**
 * The config message for a problem of the value from `source` (a variable, or its `_FILE`),
 * naming where it came from and never the value.
 */
export function describeSecretProblem(
  problem: SecretTextProblem,
  source: { variable: string; fromFile: boolean },
): string {
  const from = source.fromFile ? `${source.variable}_FILE` : source.variable;
  if (problem === "control") {
    const fix = source.fromFile
      ? "save the file with the value alone, on one line"
      : "set it to the value alone";
    return `${from} holds a control character (a line break, tab or the like) inside the value — ${fix}`;
  }
  return `${from} holds a character that cannot be sent in an HTTP header (outside Latin-1, such as a typographic dash or a zero-width space from a copy-paste) — copy the value again as plain text`;
}

/** What the schema says about a secret field: whether its value travels in an HTTP header. */
interface SecretMark {
  header: boolean;
}

// A registry, not `.meta()`: the marks stay out of the JSON Schema written for editors.
// `.describe()` and `.optional()` keep them: zod's clones read their parent's entry.
export const secretMarks = z.registry<SecretMark>();

/** A secret config value (a URL with a password, a token), never logged or echoed. */
export const secretText = z.string().register(secretMarks, { header: false });

/** A secret URL (a Teams workflow's, a webhook's: their tokens are in them); http(s) only. */
export const secretUrl = z
  .string()
  .refine((value) => /^https?:\/\/[^\s/?#]+/.test(value), {
    message: "must be an http:// or https:// URL — copy it again, whole",
  })
  .register(secretMarks, { header: false });

/** A secret sent in an HTTP header; a value from `${NAME}` was already checked, naming NAME. */
export const headerSecret = z
  .string()
  .min(1)
  .refine(isHeaderSafe, {
    message:
      "holds a character that cannot be sent in an HTTP header (a control character, or one outside Latin-1) — write the value as plain text",
  })
  .register(secretMarks, { header: true });
