import { DESTINATION_CONFIGS, DESTINATION_KINDS } from "../destinations/config-registry.js";
import { checkBaseUrl } from "../insights/check-base-url.js";
import { defaultChartDays } from "../periods/chart-window.js";
import { parseRetention } from "../periods/retention.js";
import type { PeriodKind } from "../periods/types.js";
import { Secret } from "../secret.js";
import { parseDuration } from "./parse-duration.js";
import type { ConfigInput } from "./schema.js";
import { readThreshold } from "./threshold-rules.js";
import type {
  AlertConfig,
  AlertDestinations,
  ConfigWithoutApi,
  DestinationGlobals,
  DigestConfig,
  DigestDestinations,
  IncidentsConfig,
  PrefetchConfig,
  ProjectConfig,
  ResolvedConfig,
  Team,
  Weekday,
} from "./types.js";

/** Where the SQLite ledger is when the config names no store. */
export const DEFAULT_LEDGER_PATH = "./data/reporter.sqlite";

type TeamInput = ConfigInput["teams"][number];

const WEEKDAYS: Record<TeamInput["week_starts_on"], Weekday> = {
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
  sunday: 7,
};

/**
 * Maps a config that passed the schema and every rule to the camelCase `ResolvedConfig`:
 * durations in milliseconds, weekdays as luxon numbers, titles defaulted, secrets wrapped.
 */
export function normalizeConfig(input: ConfigInput, source: string): ResolvedConfig {
  return {
    ...normalizeConfigWithoutApi(input, source),
    api: normalizeApi(input.api),
  };
}

/** The `api` section, resolved: the base URL checked, the key wrapped, the timeout in ms. */
export function normalizeApi(api: ConfigInput["api"]): ResolvedConfig["api"] {
  return {
    url: checkBaseUrl(api.url),
    key: new Secret(api.key),
    concurrency: api.concurrency,
    timeoutMs: parseDuration(api.timeout),
    maxAttempts: api.max_attempts,
    maxResponseBytes: api.max_response_bytes,
    maxRequestsPerMinute: api.max_requests_per_minute ?? null,
  };
}

/** As normalizeConfig, for commands that never call the insights API (`history`). */
export function normalizeConfigWithoutApi(
  input: Omit<ConfigInput, "api">,
  source: string,
): ConfigWithoutApi {
  return {
    source,
    ...resolveDestinationGlobals(input),
    state: {
      path: input.state.path ?? DEFAULT_LEDGER_PATH,
      url: input.state.url === undefined ? null : new Secret(input.state.url),
      sendTimeoutMs: parseDuration(input.state.send_timeout),
      maxSlotsInFlight: input.state.max_slots_in_flight,
    },
    history: {
      settleAfterMs: parseDuration(input.history.settle_after),
      keep: parseRetention(input.history.keep),
      prefetch: resolvePrefetch(input.history.prefetch),
    },
    server: { port: input.server.port, host: input.server.host },
    incidents: input.incidents ? resolveIncidents(input.incidents) : null,
    teams: input.teams.map((team) => normalizeTeam(team, input.dashboard_url)),
  };
}

/** `history.prefetch` resolved: null when off, else how far ahead and at what pace. */
function resolvePrefetch(input: ConfigInput["history"]["prefetch"]): PrefetchConfig | null {
  if (input === false) return null;
  const settings = input === true ? { ahead: "24h" } : input;
  return {
    aheadMs: parseDuration(settings.ahead),
    maxRequestsPerMinute: settings.max_requests_per_minute ?? null,
  };
}

/** `incidents:` resolved: Slack's channel, and each other kind as an alert's destination resolves. */
function resolveIncidents(input: NonNullable<ConfigInput["incidents"]>): IncidentsConfig {
  const { email, msteams, webhook, pagerduty } = DESTINATION_CONFIGS;
  return {
    minProjects: input.min_projects,
    slack: input.slack ?? null,
    email: input.email ? email.resolve.alert(input.email) : null,
    msteams: input.msteams ? msteams.resolve.alert(input.msteams) : null,
    webhook: input.webhook ? webhook.resolve.alert(input.webhook) : null,
    pagerduty: input.pagerduty ? pagerduty.resolve.alert(input.pagerduty) : null,
  };
}

function normalizeTeam(team: TeamInput, dashboardUrl: string | null): Team {
  return {
    name: team.name,
    title: team.title ?? team.name,
    timezone: team.timezone,
    weekStartsOn: WEEKDAYS[team.week_starts_on],
    dashboardUrl: team.dashboard_url ?? dashboardUrl,
    projects: team.projects.map((p) => ({
      id: p.id,
      name: p.name,
      branch: p.branch,
      author: p.author,
      tags: p.tags,
      owners: p.owners,
      attribution: resolveAttribution(p.attribution ?? team.attribution),
    })),
    digests: team.digests.map(normalizeDigest),
    alerts: team.alerts.map(normalizeAlert),
    alertActors: team.alert_actors ?? null,
  };
}

/** "8w" → 56, "28d" → 28; undefined when the config leaves it to the period. */
function chartWindowDays(window: string | undefined): number | undefined {
  const match = window === undefined ? null : /^(\d+)\s*(d|w)$/.exec(window);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] === "w" ? 7 : 1);
}

/**
 * A digest's charts: as asked (`false`, `true`, `{ window }`), or, left out, on for weekly and
 * longer digests, whose trend takes weeks to read, and off for daily ones.
 */
function digestCharts(
  charts: TeamInput["digests"][number]["charts"],
  period: PeriodKind,
): DigestConfig["charts"] {
  const on = charts ?? !DAILY_PERIODS.has(period);
  if (on === false) return null;
  const window = on === true ? undefined : on.window;
  return { windowDays: chartWindowDays(window) ?? defaultChartDays(period) };
}

/** Periods of a day or so, whose digests have charts only when asked. */
const DAILY_PERIODS: ReadonlySet<PeriodKind> = new Set(["previous_day", "since_previous_run"]);

function normalizeDigest(digest: TeamInput["digests"][number]): DigestConfig {
  return {
    name: digest.name,
    schedule: digest.schedule.trim().split(/\s+/).join(" "),
    period: digest.period,
    compareTo: digest.compare_to,
    catchUpMs: parseDuration(digest.catch_up),
    minChangePp: digest.min_change_pp,
    charts: digestCharts(digest.charts, digest.period),
    ...resolveDestinations(digest, "digest"),
  };
}

function normalizeAlert(alert: TeamInput["alerts"][number]): AlertConfig {
  return {
    name: alert.name,
    metric: alert.metric,
    window: alert.window,
    schedule: alert.schedule.trim().split(/\s+/).join(" "),
    warnAt: thresholdValue(alert.warn_at),
    criticalAt: thresholdValue(alert.critical_at),
    clearAt: thresholdValue(alert.clear_at),
    // The rules have made the three alike: relative ones with `against`, in one unit.
    against: alert.against
      ? {
          baseline: alert.against,
          by: readThreshold(alert.warn_at)?.relative === "percent" ? "percent" : "points",
        }
      : null,
    minTests: alert.min_tests,
    confidence: alert.confidence === "off" ? null : alert.confidence,
    forEvaluations: alert.for,
    repeatEveryMs: alert.repeat_every === null ? null : parseDuration(alert.repeat_every),
    scope: alert.scope,
    onNoData: alert.on_no_data,
    catchUpMs: parseDuration(alert.catch_up),
    chart: alert.chart,
    ...resolveDestinations(alert, "alert"),
  };
}

/** A threshold's number: the value, or a relative one's signed offset. */
function thresholdValue(raw: number | string): number {
  return readThreshold(raw)?.value ?? Number.NaN;
}

/** Each destination kind's shared settings, resolved by its module. */
function resolveDestinationGlobals(input: Omit<ConfigInput, "api">): DestinationGlobals {
  const resolve = <K extends keyof DestinationGlobals>(kind: K) =>
    [kind, DESTINATION_CONFIGS[kind].resolve.global(input[kind] as never)] as const;
  return Object.fromEntries(DESTINATION_KINDS.map(resolve)) as DestinationGlobals;
}

/** A digest's or an alert's destinations, each resolved by its kind's module; null where absent. */
function resolveDestinations(
  item: TeamInput["digests"][number],
  part: "digest",
): DigestDestinations;
function resolveDestinations(item: TeamInput["alerts"][number], part: "alert"): AlertDestinations;
function resolveDestinations(
  item: Record<string, unknown>,
  part: "digest" | "alert",
): Record<string, unknown> {
  return Object.fromEntries(
    DESTINATION_KINDS.map((kind) => {
      const target = item[kind];
      const resolve = DESTINATION_CONFIGS[kind].resolve[part] as (input: unknown) => unknown;
      return [kind, target === undefined ? null : resolve(target)];
    }),
  );
}

/** A declared attribution with every dimension filled (an undeclared one: no slices); null without one. */
function resolveAttribution(
  declared: TeamInput["attribution"],
): NonNullable<ProjectConfig["attribution"]> | null {
  if (!declared) return null;
  return {
    branches: declared.branches ?? [],
    authors: declared.authors ?? [],
    tags: declared.tags ?? [],
  };
}
