import { existsSync } from "node:fs";
import { ConfigError, UsageError } from "../errors.js";
import { DEFAULT_CONFIG_PATH, loadConfig, MAX_SECRET_FILE_BYTES } from "./load-config.js";
import { normalizeApi } from "./normalize-config.js";
import { readRegularFile } from "./read-regular-file.js";
import { configSchema } from "./schema.js";
import { HEADER_VALUE_PATHS } from "./secret-paths.js";
import { substituteEnv } from "./substitute-env.js";
import type { ResolvedConfig } from "./types.js";

// `projects` and `init` run before there is a config: the insights API is all they need, and
// INSIGHTS_API_URL and INSIGHTS_API_KEY (or _FILE) say where it is, every other setting its
// default. With a config, its `api` section is used, as every other command uses it.

export type ApiSettings = ResolvedConfig["api"];

/**
 * The API settings of the config named by `--config` or REPORTER_CONFIG, or found at the
 * default path; with none of these, those of the environment alone.
 */
export function apiSettingsFor(
  opts: { config?: string },
  env: NodeJS.ProcessEnv = process.env,
  hasDefaultConfig: () => boolean = () => existsSync(DEFAULT_CONFIG_PATH),
): ApiSettings {
  const path =
    opts.config || env.REPORTER_CONFIG || (hasDefaultConfig() ? DEFAULT_CONFIG_PATH : "");
  if (path) return loadConfig(path, { env, requireCredentials: false }).api;
  return apiFromEnv(env);
}

/** The API settings from INSIGHTS_API_URL and INSIGHTS_API_KEY, or a usage error naming both ways. */
export function apiFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  readFile: (path: string) => string = (p) => readRegularFile(p, MAX_SECRET_FILE_BYTES),
): ApiSettings {
  const substituted = substituteEnv(
    { api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}" } },
    { env, readFile, optionalPaths: new Set(), headerPaths: HEADER_VALUE_PATHS },
  );
  if (substituted.issues.length > 0) {
    const problems = substituted.issues.map((issue) => issue.message).join("; ");
    throw new UsageError(
      `${problems} — the insights API is given by INSIGHTS_API_URL and INSIGHTS_API_KEY, or by a config file (--config FILE, REPORTER_CONFIG, or ${DEFAULT_CONFIG_PATH})`,
    );
  }
  const api = configSchema.shape.api.safeParse((substituted.value as { api: unknown }).api);
  if (!api.success) {
    throw new ConfigError(
      "the environment",
      api.error.issues.map((issue) => ({
        path: `api.${issue.path.join(".")}`,
        message: issue.message,
      })),
    );
  }
  return normalizeApi(api.data);
}
