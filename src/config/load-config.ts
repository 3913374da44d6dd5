import { resolve } from "node:path";
import type * as z from "zod";
import { ConfigError, type ConfigIssue } from "../errors.js";
import { compareConfigPaths, labelConfigPath } from "./config-path.js";
import { checkConfigRules } from "./config-rules.js";
import { OPTIONAL_ENV_PATHS, withEnvDefaults } from "./env-defaults.js";
import { normalizeConfig, normalizeConfigWithoutApi } from "./normalize-config.js";
import { commentAdvice, parseYamlText } from "./parse-yaml-text.js";
import { FileTooLargeError, NotAFileError, readRegularFile } from "./read-regular-file.js";
import { configSecrets, redactIssues } from "./redact-issues.js";
import { configSchema, MAX_CONFIG_BYTES } from "./schema.js";
import { schemaIssues } from "./schema-issues.js";
import { HEADER_VALUE_PATHS } from "./secret-paths.js";
import { substituteEnv } from "./substitute-env.js";
import type { ConfigWithoutApi, ResolvedConfig } from "./types.js";

export interface LoadConfigOptions {
  /** Where `${NAME}` and `NAME_FILE` are looked up; default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Reads the config file and `NAME_FILE` files; default: regular files only, as UTF-8, of at
   * most maxConfigBytes (a config) or MAX_SECRET_FILE_BYTES (a `NAME_FILE`).
   */
  readFile?: (path: string) => string;
  /** Whether Slack/email destinations need their token / SMTP URL; default true (false for outbox/demo). */
  requireCredentials?: boolean;
  /** Only this team's destinations need their credentials (a command run for one team). */
  credentialsFor?: string;
  /** Larger config text is refused before it is parsed; default MAX_CONFIG_BYTES. */
  maxConfigBytes?: number;
}

export { MAX_CONFIG_BYTES };

/** A `NAME_FILE` holds one token, password or URL; anything larger was named by mistake. */
export const MAX_SECRET_FILE_BYTES = 64_000;

/** Either the resolved config or every problem found, each with its path. */
export type ConfigResult<C = ResolvedConfig> = { config: C } | { issues: ConfigIssue[] };

export const DEFAULT_CONFIG_PATH = "config/reporter.yaml";

/** The config file to read: the `--config` flag, else REPORTER_CONFIG, else config/reporter.yaml. */
export function resolveConfigPath(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return flag || env.REPORTER_CONFIG || DEFAULT_CONFIG_PATH;
}

/** Reads, checks and resolves a config file; throws ConfigError listing every problem. */
export function loadConfig(path: string, options: LoadConfigOptions = {}): ResolvedConfig {
  return orThrow(path, tryLoadConfig(path, options));
}

/** As loadConfig, but returns the problems instead of throwing. */
export function tryLoadConfig(path: string, options: LoadConfigOptions = {}): ConfigResult {
  const text = readConfigFile(path, options);
  return typeof text === "string" ? tryParseConfigText(text, path, options) : text;
}

/**
 * For commands that never call the insights API (`history`): the config without its `api`
 * section, which is neither read nor checked, so INSIGHTS_API_URL and _KEY need not be set.
 */
export function loadConfigWithoutApi(
  path: string,
  options: LoadConfigOptions = {},
): ConfigWithoutApi {
  const text = readConfigFile(path, options);
  if (typeof text !== "string") return orThrow(path, text);
  const checked = checkConfigText(text, options, configSchema.omit({ api: true }), withoutApi);
  return orThrow(
    path,
    "data" in checked ? { config: normalizeConfigWithoutApi(checked.data, path) } : checked,
  );
}

function readConfigFile(
  path: string,
  options: LoadConfigOptions,
): string | { issues: ConfigIssue[] } {
  const limit = options.maxConfigBytes ?? MAX_CONFIG_BYTES;
  const readFile = options.readFile ?? ((p: string) => readRegularFile(p, limit));
  try {
    return readFile(path);
  } catch (error) {
    if (error instanceof FileTooLargeError) return { issues: [sizeIssue(error.bytes, limit)] };
    return { issues: [unreadableFileIssue(path, error)] };
  }
}

/** Checks and resolves config text (YAML); throws ConfigError naming `source`. */
export function parseConfigText(
  text: string,
  source: string,
  options: LoadConfigOptions = {},
): ResolvedConfig {
  return orThrow(source, tryParseConfigText(text, source, options));
}

/**
 * The whole story of a config: YAML → `${NAME}` substitution → schema and cross-field rules,
 * all checked in one pass so every problem is reported at once → the camelCase ResolvedConfig.
 */
export function tryParseConfigText(
  text: string,
  source: string,
  options: LoadConfigOptions = {},
): ConfigResult {
  const checked = checkConfigText(text, options, configSchema, (raw) => raw);
  return "data" in checked ? { config: normalizeConfig(checked.data, source) } : checked;
}

/** Checks config text against `schema` after `select` picks what is checked of the YAML. */
function checkConfigText<S extends z.ZodType>(
  text: string,
  options: LoadConfigOptions,
  schema: S,
  select: (raw: unknown) => unknown,
): { data: z.output<S> } | { issues: ConfigIssue[] } {
  const env = options.env ?? process.env;
  const readFile = options.readFile ?? ((p: string) => readRegularFile(p, MAX_SECRET_FILE_BYTES));
  const limit = options.maxConfigBytes ?? MAX_CONFIG_BYTES;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > limit) return { issues: [sizeIssue(bytes, limit)] };
  const parsed = parseYamlText(text);
  if ("issues" in parsed) return parsed;
  if (parsed.value == null) {
    return {
      issues: [
        { path: "", message: "the file is empty — start from config/reporter.example.yaml" },
      ],
    };
  }
  const notMapping = notAMappingIssue(parsed.value);
  if (notMapping) return { issues: [notMapping] };
  const substituted = substituteEnv(withEnvDefaults(select(parsed.value)), {
    env,
    readFile,
    optionalPaths: OPTIONAL_ENV_PATHS,
    headerPaths: HEADER_VALUE_PATHS,
  });
  const raw = substituted.value;
  const validated = schema.safeParse(raw);
  const later = [
    ...(validated.success ? [] : schemaIssues(validated.error.issues, schema, raw)),
    ...checkConfigRules(raw, {
      requireCredentials: options.requireCredentials ?? true,
      unsetOptional: substituted.unsetOptional,
      ...(options.credentialsFor === undefined ? {} : { credentialsFor: options.credentialsFor }),
    }),
  ];
  // A value whose variable is missing still reads `${NAME}`; judging that text would only add noise.
  const unresolved = new Set(substituted.issues.map((i) => i.path));
  // `channel: #qa` reads as empty: "required" or "must be text" would hide the real slip.
  const commented = parsed.commented.map((c) => ({
    path: c.path,
    message: `${commentAdvice(c.written)} (line ${c.line})`,
  }));
  const explained = new Set([...unresolved, ...commented.map((i) => i.path)]);
  const issues = [
    ...substituted.issues,
    ...commented,
    ...later.filter((i) => !explained.has(i.path)),
  ]
    .sort((a, b) => compareConfigPaths(a.path, b.path))
    .map((i) => withLabel(i, raw));
  if (issues.length > 0 || !validated.success) {
    return {
      issues: redactIssues(issues, [...substituted.secrets, ...configSecrets(raw, unresolved)]),
    };
  }
  return { data: validated.data };
}

/** The issue with its path labelled by the names in the config, when any position has one. */
function withLabel(issue: ConfigIssue, raw: unknown): ConfigIssue {
  const label = labelConfigPath(issue.path, raw);
  return label === issue.path ? issue : { ...issue, label };
}

/** The YAML without its `api` section: not read, so its variables are never looked up. */
function withoutApi(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const { api: _api, ...rest } = raw as Record<string, unknown>;
  return rest;
}

function orThrow<C>(source: string, result: ConfigResult<C>): C {
  if ("issues" in result) throw new ConfigError(source, result.issues);
  return result.config;
}

/**
 * The issue for a file that is YAML but not a mapping of settings: a token file or a data file
 * named by mistake. Said by its kind, never quoted: such a file is often the secret itself.
 */
function notAMappingIssue(value: unknown): ConfigIssue | null {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return null;
  const kind = Array.isArray(value)
    ? "a list"
    : typeof value === "string"
      ? "a plain string"
      : typeof value === "number"
        ? "a number"
        : typeof value === "boolean"
          ? "true or false"
          : "a single value";
  return {
    path: "",
    message: `the file is ${kind}, not a YAML mapping of settings (key: value lines) — check that --config (or REPORTER_CONFIG) names the config file, not a secret or a data file`,
  };
}

function sizeIssue(bytes: number, limit: number): ConfigIssue {
  return {
    path: "",
    message: `the config is ${formatBytes(bytes)}, over the ${formatBytes(limit)} a config may be — check that --config (or REPORTER_CONFIG) names the config file and not a data file`,
  };
}

function formatBytes(bytes: number): string {
  const [unit, size] = bytes >= 1e6 ? ["MB", 1e6] : bytes >= 1e3 ? ["kB", 1e3] : ["bytes", 1];
  const value = bytes / size;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}

function unreadableFileIssue(path: string, error: unknown): ConfigIssue {
  const code = (error as NodeJS.ErrnoException).code;
  const where = resolve(path);
  const fix = "pass --config FILE or set REPORTER_CONFIG";
  if (error instanceof NotAFileError) {
    return { path: "", message: `this is ${error.what}, not a file — ${fix} to the config file` };
  }
  if (code === "ENOENT") {
    return {
      path: "",
      message: `no config file at ${where} — create it (start from config/reporter.example.yaml), or ${fix}`,
    };
  }
  return {
    path: "",
    message: `cannot read ${where} (${code ?? String(error)}) — check its permissions, or ${fix}`,
  };
}
