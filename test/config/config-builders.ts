import { stringify } from "yaml";
import { type ConfigResult, tryParseConfigText } from "../../src/config/load-config.js";
import type { ConfigIssue } from "../../src/errors.js";

/** An environment giving every variable a full config needs. */
export function fullEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    INSIGHTS_API_URL: "https://acme.insights.test/api/external/v1",
    INSIGHTS_API_KEY: "test-api-key-0001",
    SLACK_BOT_TOKEN: "xoxb-test-token",
    SMTP_URL: "smtp://mailer:mail-pass@127.0.0.1:2525",
    ...overrides,
  };
}

/** A small valid config, as plain data the tests edit before writing it out as YAML. */
export function validConfig(): Record<string, unknown> {
  return {
    api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}" },
    teams: [
      {
        name: "checkout",
        timezone: "Europe/Berlin",
        projects: [{ id: "pdqmxlz" }, { id: "qwhtzrn", name: "API" }],
        digests: [
          {
            name: "daily",
            schedule: "0 9 * * 1-5",
            slack: { channel: "C0123ABCD" },
            email: { to: ["qa@example.com"] },
          },
        ],
        alerts: [
          {
            name: "flaky-rate",
            schedule: "0 9 * * *",
            warn_at: 3,
            critical_at: 5,
            clear_at: 2.5,
            slack: { channel: "C0ALERTS" },
          },
        ],
      },
      {
        name: "payments",
        timezone: "America/New_York",
        projects: [{ id: "mvbkqfe" }],
        digests: [{ name: "daily", schedule: "30 8 * * 1-5", email: { to: ["pay@example.com"] } }],
      },
    ],
  };
}

/**
 * Sets (or, with undefined, deletes) the value at a path written as in messages:
 * `teams[0].digests[0].schedule`. Missing objects on the way are created.
 */
export function setPath(doc: unknown, path: string, value: unknown): void {
  const segments = path
    .split(/\.|(?=\[)/)
    .map((s) => (s.startsWith("[") ? Number(s.slice(1, -1)) : s));
  let node = doc as Record<string | number, unknown>;
  for (const segment of segments.slice(0, -1)) {
    node[segment] ??= {};
    node = node[segment] as Record<string | number, unknown>;
  }
  const last = segments.at(-1) as string | number;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/** The valid config with edits applied, as YAML text. */
export function configText(edits: Record<string, unknown> = {}): string {
  const doc = validConfig();
  for (const [path, value] of Object.entries(edits)) setPath(doc, path, value);
  return stringify(doc);
}

/** Parses config text with a given env; credentials required unless said otherwise. */
export function parse(
  text: string,
  options: { env?: NodeJS.ProcessEnv; requireCredentials?: boolean } = {},
): ConfigResult {
  return tryParseConfigText(text, "test.yaml", {
    env: options.env ?? fullEnv(),
    requireCredentials: options.requireCredentials ?? true,
  });
}

/** The issues of a result that must have failed. */
export function issuesOf(result: ConfigResult): ConfigIssue[] {
  if (!("issues" in result)) throw new Error("expected the config to be refused, but it loaded");
  return result.issues;
}

/** `path: message` lines, as ConfigError prints them. */
export function issueLines(result: ConfigResult): string[] {
  return issuesOf(result).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
}
