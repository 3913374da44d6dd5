// The secret fields of the config as composed, read once off the schema (see secret-fields.ts).
// Every place that redacts or checks a secret reads these lists; none names a field.
import { configSchema } from "./schema.js";
import { logRedactPaths, type SecretPath, secretPathsOf } from "./secret-fields.js";

/** Every secret field of the config: `api.key`, `slack.token`, `email.smtp_url`, `state.url`, … */
export const SECRET_PATHS: readonly SecretPath[] = secretPathsOf(configSchema);

/** Config paths whose value travels in an HTTP header (see secret-text.ts). */
export const HEADER_VALUE_PATHS: ReadonlySet<string> = new Set(
  SECRET_PATHS.filter((s) => s.header).map((s) => s.path),
);

/** What the logger redacts when a secret slipped through as a plain string. */
export const SECRET_LOG_PATHS: readonly string[] = logRedactPaths(SECRET_PATHS);
