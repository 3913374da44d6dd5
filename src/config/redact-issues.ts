import type { ConfigIssue } from "../errors.js";
import { redactSecrets } from "../secret.js";
import { secretForms, secretValuesAt } from "./secret-fields.js";
import { SECRET_PATHS } from "./secret-paths.js";

/** Shorter values are not scrubbed: replacing "ab" everywhere would garble every message. */
const MIN_SECRET_LENGTH = 4;

/**
 * The secret values in a config as read, every field the schema marks secret (a URL's password
 * too). Together with the values substituted from secret variables, they are scrubbed from
 * every message, whatever rule produced it.
 */
export function configSecrets(raw: unknown, unresolved: ReadonlySet<string>): string[] {
  // A value whose variable was missing still reads `${NAME}`: a name, not a secret.
  const resolved = SECRET_PATHS.filter(({ path }) => !unresolved.has(path));
  return secretValuesAt(raw, resolved).flatMap(secretForms);
}

/** Replaces every occurrence of a secret in the issues' paths and messages with `[redacted]`. */
export function redactIssues(issues: ConfigIssue[], secrets: readonly string[]): ConfigIssue[] {
  const clean = (text: string) => redactSecrets(text, secrets, MIN_SECRET_LENGTH);
  return issues.map((issue) => ({
    path: clean(issue.path),
    message: clean(issue.message),
    ...(issue.label === undefined ? {} : { label: clean(issue.label) }),
  }));
}
