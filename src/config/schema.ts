import * as z from "zod";
import { ALERT_METRICS, type AlertMetric, describeAlertMetrics } from "../alerts/alert-metrics.js";
import { DESTINATION_CONFIGS, DESTINATION_KINDS } from "../destinations/config-registry.js";
import type { DestinationKind, DestinationShapes } from "../destinations/registry.js";
import { COMPARE_TO, PERIOD_KINDS, type PeriodKind } from "../periods/types.js";
import { headerSecret, secretText } from "../secret-text.js";
import { parseDuration } from "./parse-duration.js";

// The config file's schema, as people write it (snake_case YAML). Descriptions and defaults
// live here once: the JSON Schema for editors (`config/reporter.schema.json`) is generated
// from it. Unknown keys are errors, so a typo never silently does nothing.
// Each destination's part (its shared settings, a digest's and an alert's target) is its
// module's fragment (src/destinations/<kind>/), composed here in the registry's order.
// `normalize-config.ts` turns the parsed value into the camelCase `ResolvedConfig`.

const duration = z
  .string()
  .regex(/^\d+\s*(s|m|h|d)$/, 'a duration such as "30m", "6h" or "1d"')
  .describe('A duration: a whole number with s, m, h or d, e.g. "6h".');

/** A duration of at least a second: 0s would time out every request, or claim nothing at all. */
const positiveDuration = duration.refine((value) => !/^0+\s*[smhd]$/.test(value), {
  message: 'must be at least 1s, e.g. "30s"',
});

/**
 * A config of many teams is tens of kilobytes; parsing 50 MB took minutes and gigabytes, so
 * a file this large is never read whole, nor its text parsed.
 */
export const MAX_CONFIG_BYTES = 1_000_000;

/**
 * `state.max_slots_in_flight` unless set. Measured 2026-11-28 (1,000 teams of 3 projects due
 * at one minute, outbox, emulator in the same process, under tsx): peak RSS 236-242 MB at 50,
 * 253-259 MB unbounded; the emulator and tsx alone hold some 170 MB of it.
 */
export const DEFAULT_MAX_SLOTS_IN_FLIGHT = 50;

/**
 * The longest each duration may be: what anyone would set, with room to spare. A longer one is
 * a slip (`25d` for `25s`), and one that becomes a timer must stay under Node's 2^31-1 ms
 * (some 24.8 days), past which the timer fires at once instead.
 */
export const DURATION_MAX = {
  /** A timer: one request's deadline. */
  apiTimeout: "10m",
  /** A timer: one delivery's deadline. */
  sendTimeout: "1h",
  /** How late runs may still land in a day; the API serves 3 months in all. */
  settleAfter: "14d",
  /** A run missed longer ago than this is history: `run --at` still sends it. */
  catchUp: "7d",
  /** A reminder less often than monthly reminds no one. */
  repeatEvery: "30d",
  /** The day store's retention (days, weeks or years). */
  historyKeep: "10y",
  /** The charts' span (days or weeks). */
  chartWindow: "104w",
  /** How far ahead of a fire its days are prefetched: a weekly schedule's next fire at most. */
  prefetchAhead: "7d",
} as const;

const DAYS_IN = { d: 1, w: 7, y: 366 } as const;

/** Days in "28d", "8w" or "2y" (a year counted long, so "10y" and "3660d" are the same limit). */
function spanDays(text: string): number {
  const match = /^(\d+)\s*(d|w|y)$/.exec(text.trim());
  return match ? Number(match[1]) * DAYS_IN[match[2] as keyof typeof DAYS_IN] : Number.NaN;
}

/** `schema` refusing a value longer than `max`, in the words the user wrote it in. */
function atMost<S extends z.ZodType<string>>(schema: S, max: string, length = durationMs) {
  const limit = length(max);
  return schema.refine((value) => !(length(value) > limit), { message: `at most ${max}` });
}

/** Milliseconds in a duration; NaN for text the regex refuses (its message says why). */
function durationMs(text: string): number {
  return /^\d+\s*(s|m|h|d)$/.test(text.trim()) ? parseDuration(text) : Number.NaN;
}

const cron = z
  .string()
  .describe(
    'A 5-field cron expression (minute hour day-of-month month day-of-week), evaluated in the team\'s timezone, e.g. "0 9 * * 1-5".',
  );

const periodKind = z.enum(PERIOD_KINDS).describe("Which whole local days a fire covers.");

/** Each destination kind's fragment for a digest or an alert, as an optional field named after the kind. */
function destinationFields<P extends "digest" | "alert">(
  part: P,
): { [K in DestinationKind]: z.ZodOptional<DestinationShapes[K]["schema"][P]> } {
  return Object.fromEntries(
    DESTINATION_KINDS.map((kind) => [kind, DESTINATION_CONFIGS[kind].schema[part].optional()]),
  ) as { [K in DestinationKind]: z.ZodOptional<DestinationShapes[K]["schema"][P]> };
}

/** Each destination kind's shared settings (`slack:`, `email:`), named after the kind. */
function destinationGlobals(): {
  [K in DestinationKind]: DestinationShapes[K]["schema"]["global"];
} {
  return Object.fromEntries(
    DESTINATION_KINDS.map((kind) => [kind, DESTINATION_CONFIGS[kind].schema.global]),
  ) as { [K in DestinationKind]: DestinationShapes[K]["schema"]["global"] };
}

/** Defaults the cross-field rules (team-rules.ts) also need, before the schema has filled them. */
export const DEFAULT_PERIOD: PeriodKind = "previous_day";
export const DEFAULT_ALERT_METRIC: AlertMetric = "flaky_rate";

const digestCharts = z
  .strictObject({
    window: atMost(
      z.string().regex(/^([1-9]\d{0,2})\s*(d|w)$/, 'days or weeks, e.g. "28d" or "8w"'),
      DURATION_MAX.chartWindow,
      spanDays,
    )
      .optional()
      .describe(
        `Days the charts show, ending with the digest's period: "28d", "8w". Default 8w for weekly digests, 16w for monthly and 28-day ones, 28d for daily ones; never less than the period and its comparison. At most ${DURATION_MAX.chartWindow}.`,
      ),
  })
  .describe("Trend charts over a window of your choosing.");

/** Whether a digest has charts: left out, weekly and longer digests do and daily ones do not. */
const digestChartsSetting = z
  .union([z.boolean(), digestCharts])
  .optional()
  .describe(
    "Trend charts, one image per subject with its flaky rate and run pass rate by day (the team, then projects needing attention): inline in the email, on the workbook's Charts sheet, and the team's in the Slack thread. On by default for weekly and longer digests, off for daily ones (previous_day, since_previous_run); true or { window } turns them on, false off.",
  );

const digest = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z0-9-]+$/, "lowercase letters, digits and -")
      .describe("Id used in commands and keys."),
    schedule: cron,
    period: periodKind.default(DEFAULT_PERIOD),
    compare_to: z
      .enum(COMPARE_TO)
      .default("previous_period")
      .describe(
        "previous_period: the equal span just before; same_period_last_week: the same weekday a week earlier (periods of at most 7 days); same_period_last_year: the same months a year earlier for previous_month and previous_quarter, else the same weekdays 52 weeks earlier (read from the day store once the API's 3 months have passed); median_of_4_weeks: the median of the same span in each of the 4 previous weeks (the last 4 Tuesdays for a daily digest; periods of at most 7 days), so one odd day does not colour the digest.",
      ),
    catch_up: atMost(duration, DURATION_MAX.catchUp)
      .default("6h")
      .describe(
        `After downtime, still deliver a run missed within this window. At most ${DURATION_MAX.catchUp}.`,
      ),
    min_change_pp: z
      .number()
      .min(0)
      .max(100)
      .default(0.5)
      .describe(
        "Smallest rate change, in percentage points, coloured as news (it must also be significant at 95%); smaller ones show uncoloured as ≈.",
      ),
    charts: digestChartsSetting,
    ...destinationFields("digest"),
  })
  .describe("A report posted on a schedule; needs at least one destination (slack or email).");

/** "+1", "-2", "+20%": a signed offset from a baseline (pp or the metric's unit, or percent). */
export const RELATIVE_THRESHOLD = /^[+-]\d+(\.\d+)?%?$/;

const threshold = z.union([
  z.number().min(0),
  z
    .string()
    .regex(
      RELATIVE_THRESHOLD,
      'a number, or a signed offset from the normal such as "+1", "-2" or "+20%" (quoted)',
    ),
]);

/** What `against:` may name. */
export const ALERT_BASELINES = ["median_of_4_weeks"] as const;

const alert = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z0-9-]+$/, "lowercase letters, digits and -")
      .describe("Id used in commands and keys."),
    metric: z.enum(ALERT_METRICS).default(DEFAULT_ALERT_METRIC).describe(describeAlertMetrics()),
    window: periodKind.default(DEFAULT_PERIOD),
    schedule: cron,
    against: z
      .enum(ALERT_BASELINES)
      .optional()
      .describe(
        'Thresholds relative to the scope\'s own normal: median_of_4_weeks is the median of the same weekday in each of the last 4 weeks for a day window (the 4 weeks before for a week), else of the 4 windows before; fewer than 3 of them with min_tests results is no_data. Needs signed thresholds such as "+1".',
      ),
    warn_at: threshold.describe(
      `Threshold at which the alert warns: absolute in the metric's unit (percent for rates, a count for runs, minutes for mean_run_duration), or with against, a signed offset from the normal: "+1" (pp for rates, the metric's unit otherwise), "+20%" (a percent of the normal), "-2" for a metric that is bad when low.`,
    ),
    critical_at: threshold.describe(
      "Threshold at which the alert is critical, written as warn_at is.",
    ),
    clear_at: threshold.describe(
      "Hysteresis: a firing alert resolves only past this value, on the good side of warn_at; written as warn_at is.",
    ),
    min_tests: z
      .number()
      .int()
      .min(0)
      .default(200)
      .describe("No verdict (no_data) on fewer test results in the window."),
    confidence: z
      .union([z.number().gt(0).lt(1), z.literal("off")])
      .default(0.95)
      .describe(
        "Compare the Wilson score interval at this confidence with the thresholds, so a tiny sample cannot fire; off compares the raw value.",
      ),
    for: z
      .number()
      .int()
      .min(1)
      .default(1)
      .describe("Consecutive breaching evaluations before the alert fires."),
    repeat_every: atMost(duration, DURATION_MAX.repeatEvery)
      .nullable()
      .default(null)
      .describe(
        `A reminder this often while still firing, e.g. "1d"; null: none. At most ${DURATION_MAX.repeatEvery}.`,
      ),
    scope: z
      .enum(["projects", "team", "both"])
      .default("both")
      .describe("Evaluate each project, the team total, or both."),
    on_no_data: z
      .enum(["keep", "resolve", "fire"])
      .default("keep")
      .describe(
        "Without a verdict: keep the last state, resolve a firing alert, or fire (warn) as if breaching.",
      ),
    catch_up: atMost(duration, DURATION_MAX.catchUp)
      .default("6h")
      .describe(
        `After downtime, still evaluate a run missed within this window. At most ${DURATION_MAX.catchUp}.`,
      ),
    chart: z
      .boolean()
      .default(false)
      .describe(
        "A fire's first message carries the fired scope's chart by day with the thresholds: uploaded into its Slack thread, inline in its mail (flaky_rate, run_pass_rate, skipped_share and timed_out_share; thresholds relative to a normal draw no line).",
      ),
    ...destinationFields("alert"),
  })
  .describe("A threshold check on a schedule; needs at least one destination (slack or email).");

const owner = z
  .string()
  .regex(
    /^(?:[UWS][A-Z0-9]+|[^\s@<>]+@[^\s@<>]+)$/,
    'a Slack user id ("U0123ABCD"), a Slack group id ("S0123ABCD") or an email address',
  )
  .describe("A Slack user or group id, or an email address.");

const actor = z
  .string()
  .regex(
    /^[UWS][A-Z0-9]{2,}$/,
    'a Slack user id ("U0123ABCD": a profile\'s ⋯ → Copy member ID) or user group id ("S0123ABCD": the group\'s page → ⋯ → Copy group ID), not a name or @handle',
  )
  .describe("A Slack user (U…) or user group (S…) id.");

/** At most this many slices per dimension: each is two more requests for a project with news. */
export const MAX_SLICES = 10;

/** One dimension's slices: a non-empty list of at most MAX_SLICES. */
function sliceList<T extends z.ZodType>(item: T, what: string) {
  return z
    .array(item)
    .refine((list) => list.length > 0, {
      message: `is empty — list at least one ${what}, or leave it out`,
    })
    .refine((list) => list.length <= MAX_SLICES, {
      message: `lists more than ${MAX_SLICES} ${what}s — at most ${MAX_SLICES} slices per dimension (each costs two requests)`,
    })
    .optional();
}

const attribution = z
  .strictObject({
    branches: sliceList(z.string().min(1), "branch").describe(
      "Branches a change is split by, as the API's `branch` filter takes them; the rest is shown as other.",
    ),
    authors: sliceList(z.string().min(1), "author").describe(
      "Authors a change is split by, as the API's `author` filter takes them; the rest is shown as other.",
    ),
    tags: sliceList(
      z.array(z.string().min(1)).refine((set) => set.length > 0, {
        message: "is an empty tag set — list at least one tag",
      }),
      "tag set",
    ).describe(
      "Tag sets a change is split by, each as the API's `tags` filter takes it (runs carrying every tag). Tags overlap: each is shown on its own.",
    ),
  })
  .refine((a) => a.branches || a.authors || a.tags, {
    message: "declares no slices — give branches, authors or tags, or leave attribution out",
  })
  .describe(
    "Slices to split a change by: when a figure is news, the digest says which branch, author or tag moved it.",
  );

const project = z
  .strictObject({
    id: z.string().min(1).describe("Project id, as `insights-reporter projects` lists them."),
    name: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .describe("Display name; else taken from the API."),
    branch: z.string().nullable().default(null).describe("Count only runs on this branch."),
    author: z.string().nullable().default(null).describe("Count only runs by this author."),
    tags: z
      .array(z.string().min(1))
      .default([])
      .describe("Count only runs carrying every listed tag."),
    owners: z
      .array(owner)
      .default([])
      .describe(
        "Who to tell when the news names this project for something bad (silent, significantly worse, could not be fetched, an alert firing): Slack user (U…) or group (S…) ids are mentioned in Slack, email addresses are copied (Cc) on email digests.",
      ),
    attribution: attribution
      .optional()
      .describe("Overrides the team's attribution for this project."),
  })
  .describe("A project of the insights service, with optional filters.");

const team = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z0-9-]+$/, "lowercase letters, digits and -")
      .describe("Id used in commands and keys: [a-z0-9-]."),
    title: z.string().min(1).optional().describe("Shown to people; defaults to name."),
    timezone: z.string().describe("IANA zone: buckets days, fires schedules, labels periods."),
    week_starts_on: z
      .enum(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
      .default("monday")
      .describe("First day of a week, for previous_week periods."),
    dashboard_url: z
      .string()
      .nullable()
      .default(null)
      .describe("Link for a project's dashboard, with {project_id}; overrides the top-level one."),
    projects: z.array(project).min(1).describe("The team's projects; at least one."),
    attribution: attribution.optional(),
    digests: z.array(digest).default([]).describe("Scheduled reports."),
    alerts: z.array(alert).default([]).describe("Scheduled threshold checks."),
    alert_actors: z
      .array(actor)
      .refine((actors) => actors.length > 0, {
        message: "lists no one — leave alert_actors out to let anyone in the channel act",
      })
      .optional()
      .describe(
        "Who may acknowledge and snooze this team's alerts from Slack: Slack user (U…) and user group (S…) ids. Leave it out and anyone in the alert's channel may.",
      ),
  })
  .describe("A team: its timezone, projects, digests and alerts.");

/** `incidents:` — many projects firing in one tick posted once, as one incident (issue 38). */
const incidents = z
  .strictObject({
    min_projects: z
      .number()
      .int()
      .refine((n) => n >= 2, {
        message: "must be at least 2 (one project alone is an alert, not an incident), e.g. 3",
      })
      .default(3)
      .describe(
        "An incident forms when alerts fire for at least this many projects in one evaluation tick, across every team and alert.",
      ),
    slack: z
      .strictObject({
        channel: z.string().min(1).describe("Channel id (C0123ABCD, recommended) or #name."),
      })
      .optional()
      .describe("Post each incident here, its members as replies in its thread."),
    // Every other kind takes an incident where an alert's destination of that kind would go.
    email: DESTINATION_CONFIGS.email.schema.alert.optional(),
    msteams: DESTINATION_CONFIGS.msteams.schema.alert.optional(),
    webhook: DESTINATION_CONFIGS.webhook.schema.alert.optional(),
    pagerduty: DESTINATION_CONFIGS.pagerduty.schema.alert
      .optional()
      .describe(
        "Open a PagerDuty incident when an incident forms (its key the dedup key), and resolve it when its last member resolves.",
      ),
  })
  .refine((section) => DESTINATION_KINDS.some((kind) => section[kind] !== undefined), {
    message:
      'names no destination — add incidents.slack.channel (e.g. "#incidents"), or incidents.email, msteams, webhook or pagerduty',
  })
  .describe(
    "One incident message when many projects break together; each member's alert still posts in its team's channel, marked as part of it.",
  );

export const configSchema = z
  .strictObject({
    api: z
      .strictObject({
        url: z.string().describe("Base URL: https://<workspace>.<host>/api/external/v1"),
        key: headerSecret.describe("Workspace API key; use ${INSIGHTS_API_KEY}."),
        concurrency: z
          .number()
          .int()
          .min(1)
          .max(32)
          .default(4)
          .describe("Requests in flight at once."),
        timeout: atMost(positiveDuration, DURATION_MAX.apiTimeout)
          .default("30s")
          .describe(`Deadline for one request, body included. At most ${DURATION_MAX.apiTimeout}.`),
        max_attempts: z
          .number()
          .int()
          .min(1)
          .max(20)
          .default(6)
          .describe("Attempts per request, retries included."),
        max_response_bytes: z
          .number()
          .int()
          .min(100_000)
          .default(8_000_000)
          .describe(
            "Largest response body read from the API, in bytes; a bigger one fails its project instead of filling memory. Insights bodies are some 100 kB for 90 days.",
          ),
        max_requests_per_minute: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            "Requests to the API in any 60 seconds, by the whole process (and by every replica together on a PostgreSQL ledger). Leave it out to follow the API's own X-RateLimit-Limit when it sends one, else no limit.",
          ),
      })
      .describe("The insights API."),
    ...destinationGlobals(),
    state: z
      .strictObject({
        path: z
          .string()
          .optional()
          .describe("The ledger, an SQLite file (default ./data/reporter.sqlite): one daemon."),
        url: secretText
          .optional()
          .describe(
            "Instead of path: a PostgreSQL database shared by several replicas, postgres://user:pass@host:5432/db; use ${DATABASE_URL}.",
          ),
        send_timeout: atMost(positiveDuration, DURATION_MAX.sendTimeout)
          .default("5m")
          .describe(
            `How long one delivery may take. A delivery another process began less than this long ago is left to it; after a crash mid-send, the interrupted delivery is looked for (and finished) only once this long has passed since it began, when its post can no longer land. At most ${DURATION_MAX.sendTimeout}.`,
          ),
        max_slots_in_flight: z
          .number()
          .int()
          .min(1)
          .max(10_000)
          .default(DEFAULT_MAX_SLOTS_IN_FLIGHT)
          .describe(
            `Slots (digests and alert checks) a process runs at once; more due at the same minute wait their turn in fire order. Bounds memory in a burst (the default ${DEFAULT_MAX_SLOTS_IN_FLIGHT} keeps a minute of 1,000 teams well under 250 MB).`,
          ),
      })
      .refine((state) => state.path === undefined || state.url === undefined, {
        message:
          "give state.path (SQLite, one daemon) or state.url (PostgreSQL, replicas), not both",
      })
      .default({ send_timeout: "5m", max_slots_in_flight: DEFAULT_MAX_SLOTS_IN_FLIGHT })
      .describe("Where deliveries and alert states are recorded."),
    history: z
      .strictObject({
        settle_after: atMost(positiveDuration, DURATION_MAX.settleAfter)
          .default("48h")
          .describe(
            `A day's figures are final once it ended this long ago (runs uploaded late still land in it until then); a final day in the store is never fetched again. At most ${DURATION_MAX.settleAfter}.`,
          ),
        keep: atMost(
          z
            .string()
            .regex(/^\d+\s*(d|w|y)$/, 'days, weeks or years, such as "2y", "18w" or "400d"')
            .refine((value) => !/^0+\s*[dwy]$/.test(value), {
              message: 'must be at least 1d, e.g. "2y"',
            }),
          DURATION_MAX.historyKeep,
          spanDays,
        )
          .default("2y")
          .describe(
            `How long the day store keeps a day: days, weeks or calendar years ("2y", "18w", "400d"). Older days are deleted once a day; a digest or export that reaches further names them as missing. At most ${DURATION_MAX.historyKeep}.`,
          ),
        prefetch: z
          .union([
            z.boolean(),
            z.strictObject({
              ahead: atMost(positiveDuration, DURATION_MAX.prefetchAhead)
                .default("24h")
                .describe(
                  `How long before a fire its settled days are fetched, from then on whenever the daemon is idle. At most ${DURATION_MAX.prefetchAhead}.`,
                ),
              max_requests_per_minute: z
                .number()
                .int()
                .min(1)
                .optional()
                .describe(
                  "Requests a minute the prefetch sends at most, within api.max_requests_per_minute (default: a quarter of it, or 60 without it).",
                ),
            }),
          ])
          .default(true)
          .describe(
            "The daemon fetches into the store, ahead of time, the days of the next day's digests and alerts that are settled already (their periods, priors, baselines and chart windows), one range at a time while no slot runs and no fire is due within 2 minutes, so that a burst of fires asks the API only for each project's last days. true (the default) or { ahead, max_requests_per_minute }; false turns it off.",
          ),
      })
      .default({ settle_after: "48h", keep: "2y", prefetch: true })
      .describe("The day store: each project day fetched is kept in the ledger."),
    server: z
      .strictObject({
        port: z
          .number()
          .int()
          .min(0)
          .max(65535)
          .default(9464)
          .describe("Port of /healthz, /readyz and /metrics."),
        host: z.string().default("127.0.0.1").describe("Use 0.0.0.0 in a container."),
      })
      .default({ port: 9464, host: "127.0.0.1" })
      .describe("The daemon's HTTP server."),
    dashboard_url: z
      .string()
      .nullable()
      .default(null)
      .describe("Link for a project's dashboard, with {project_id}."),
    incidents: incidents.optional(),
    teams: z.array(team).min(1).describe("One entry per team; at least one."),
  })
  .describe(
    `The configuration of insights-reporter, a file of at most ${MAX_CONFIG_BYTES / 1_000_000} MB (${MAX_CONFIG_BYTES} bytes).`,
  );

/** The config as parsed, before normalization (snake_case, defaults applied). */
export type ConfigInput = z.output<typeof configSchema>;
