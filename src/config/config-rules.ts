import { DESTINATION_CONFIGS, DESTINATION_KINDS } from "../destinations/config-registry.js";
import { BaseUrlError, type ConfigIssue } from "../errors.js";
import { checkBaseUrl } from "../insights/check-base-url.js";
import { asRecord, asRecords, asText, type Loose } from "./loose-access.js";
import { checkDashboardUrl, checkTeam, checkUnique } from "./team-rules.js";

export interface RuleContext {
  /** Whether Slack/email destinations need their credentials (false for the outbox and demo). */
  requireCredentials: boolean;
  /** Only this team's destinations need credentials: a command for one team (`run --team`). */
  credentialsFor?: string;
  /** Optional credentials left out because their variable is unset: path → variable name. */
  unsetOptional: ReadonlyMap<string, string>;
}

/**
 * The rules a config must meet beyond its schema. Runs on the data as read (before the schema
 * has accepted it) so that one pass reports every problem, schema and cross-field alike.
 */
export function checkConfigRules(raw: unknown, context: RuleContext): ConfigIssue[] {
  const config = asRecord(raw);
  const teams = asRecords(config.teams);
  return [
    ...checkApiUrl(asRecord(config.api).url),
    ...checkSlackApiUrl(asRecord(config.slack).api_url),
    ...checkSmtpUrl(asRecord(config.email).smtp_url),
    ...checkStateUrl(asRecord(config.state).url),
    ...checkDashboardUrl(config.dashboard_url, "dashboard_url"),
    ...checkUnique(teams, "name", "teams", "team name"),
    ...teams.flatMap(([i, team]) => checkTeam(team, `teams[${i}]`)),
    ...(context.requireCredentials
      ? checkCredentials(
          config,
          teams.filter(
            ([, t]) => context.credentialsFor === undefined || t.name === context.credentialsFor,
          ),
          context.unsetOptional,
        )
      : []),
  ];
}

function checkApiUrl(value: unknown): ConfigIssue[] {
  const url = asText(value);
  if (url === undefined) return [];
  try {
    checkBaseUrl(url);
    return [];
  } catch (error) {
    if (error instanceof BaseUrlError) return [{ path: "api.url", message: error.message }];
    throw error;
  }
}

function checkSlackApiUrl(value: unknown): ConfigIssue[] {
  const url = asText(value);
  if (url === undefined || /^https?:$/.test(parseUrl(url)?.protocol ?? "")) return [];
  return [
    { path: "slack.api_url", message: "must be an http(s) URL such as https://slack.com/api/" },
  ];
}

function checkSmtpUrl(value: unknown): ConfigIssue[] {
  const url = asText(value);
  if (url === undefined) return [];
  const parsed = parseUrl(url);
  // The value is never quoted: it usually carries the SMTP password.
  if (parsed && /^smtps?:$/.test(parsed.protocol) && parsed.hostname !== "") return [];
  return [
    {
      path: "email.smtp_url",
      message:
        "must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@mail.example.com:587 — check SMTP_URL",
    },
  ];
}

function checkStateUrl(value: unknown): ConfigIssue[] {
  const url = asText(value);
  if (url === undefined) return [];
  const parsed = parseUrl(url);
  // The value is never quoted: it usually carries the database password.
  if (parsed && /^postgres(ql)?:$/.test(parsed.protocol) && parsed.hostname !== "") return [];
  return [
    {
      path: "state.url",
      message:
        "must be a postgres:// URL with a host, e.g. postgres://reporter:pass@db:5432/insights — check DATABASE_URL",
    },
  ];
}

/** A destination is useless without the credential that sends it (a token, an SMTP URL). */
function checkCredentials(
  config: Loose,
  teams: [number, Loose][],
  unsetOptional: ReadonlyMap<string, string>,
): ConfigIssue[] {
  const users = new Map(DESTINATION_KINDS.map((kind) => [kind, [] as string[]]));
  for (const [t, team] of teams) {
    for (const list of ["digests", "alerts"] as const) {
      for (const [i, item] of asRecords(team[list])) {
        const path = `teams[${t}].${list}[${i}]`;
        for (const kind of DESTINATION_KINDS) {
          if (item[kind] != null) users.get(kind)?.push(`${path}.${kind}`);
        }
      }
    }
  }
  const issues: ConfigIssue[] = [];
  const missing = DESTINATION_KINDS.flatMap((kind) => {
    const credential = DESTINATION_CONFIGS[kind].credential;
    // A kind whose destinations each carry their own URL has nothing shared to check.
    if (credential === null) return [];
    const { key, variable } = credential;
    return {
      path: `${kind}.${key}`,
      variable,
      present: asRecord(config[kind])[key],
      users: users.get(kind) ?? [],
    };
  });
  for (const { path, variable, present, users: needed } of missing) {
    if (present !== undefined || needed.length === 0) continue;
    const name = unsetOptional.get(path) ?? variable;
    issues.push({
      path,
      message: `\${${name}} is not set — export ${name} (or ${name}_FILE); needed by ${listSome(needed)}`,
    });
  }
  return issues;
}

function listSome(paths: string[]): string {
  const shown = paths.slice(0, 3).join(", ");
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
