import { DESTINATION_CONFIGS, DESTINATION_KINDS } from "../destinations/config-registry.js";
import { isRecord } from "./loose-access.js";

/**
 * Credentials a config may leave out: each defaults to its environment variable
 * (docs/configuration.md, "The config file"), as each destination module declares them.
 */
const DEFAULTS = DESTINATION_KINDS.flatMap((section) =>
  Object.entries(DESTINATION_CONFIGS[section].envDefaults).map(([key, variable]) => ({
    section,
    key,
    variable,
  })),
);

/** Paths where an unset variable means "not configured" rather than an error. */
export const OPTIONAL_ENV_PATHS: ReadonlySet<string> = new Set(
  DEFAULTS.map((d) => `${d.section}.${d.key}`),
);

/**
 * Fills absent optional credentials with `${VARIABLE}` references, so `SLACK_BOT_TOKEN`,
 * `SLACK_API_URL` and `SMTP_URL` (or their `_FILE` forms) work without being named in the file.
 */
export function withEnvDefaults(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const out: Record<string, unknown> = { ...raw };
  for (const { section, key, variable } of DEFAULTS) {
    const current = out[section];
    if (current !== undefined && !isRecord(current)) continue;
    const sectionValue: Record<string, unknown> = { ...(current ?? {}) };
    if (!(key in sectionValue)) sectionValue[key] = `\${${variable}}`;
    out[section] = sectionValue;
  }
  return out;
}
