import type { ConfigIssue } from "../errors.js";
import { redactSecrets } from "../secret.js";
import { asRecord, asText } from "./loose-access.js";

/** Shorter values are not scrubbed: replacing "ab" everywhere would garble every message. */
const MIN_SECRET_LENGTH = 4;

/**
 * The secret values in a config as read: the API key, the Slack token, the SMTP URL and its
 * password. Together with the values substituted from secret variables, they are scrubbed
 * from every message, whatever rule produced it.
 */
export function configSecrets(raw: unknown, unresolved: ReadonlySet<string>): string[] {
  const config = asRecord(raw);
  // A value whose variable was missing still reads `${NAME}`: a name, not a secret.
  const at = (section: string, key: string) =>
    unresolved.has(`${section}.${key}`) ? undefined : asText(asRecord(config[section])[key]);
  const smtpUrl = at("email", "smtp_url");
  const secrets = [at("api", "key"), at("slack", "token"), smtpUrl];
  if (smtpUrl !== undefined) {
    try {
      const password = new URL(smtpUrl).password;
      secrets.push(password, safeDecode(password));
    } catch {
      // Not a URL: the whole value is already listed.
    }
  }
  return secrets.filter((s): s is string => s !== undefined);
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

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
