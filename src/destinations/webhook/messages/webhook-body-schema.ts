import * as z from "zod";
import { ALERT_METRICS } from "../../../alerts/alert-metrics.js";

// The signed webhook's body, version 1: the one description of the wire format. The TypeScript
// types below are inferred from it and docs/webhook-v1.schema.json is generated from it, so the
// code, the types receivers read and the published schema cannot disagree. Names on the wire
// are snake_case, like the config. Rates are fractions (0.938 is 93.8%), durations milliseconds,
// dates ISO days in the team's zone.

/** The version this build sends; a change that breaks receivers makes a version 2. */
export const WEBHOOK_BODY_VERSION = 1;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("an ISO date, in the team's zone");

const period = z
  .object({ start: isoDate, end: isoDate })
  .meta({ id: "Period", description: "whole days in the team's zone, both ends included" });

const team = z
  .object({
    name: z.string().describe("the team's id in the config: [a-z0-9-]"),
    title: z.string().describe("the team's name as people read it"),
    timezone: z.string().describe("IANA zone that buckets the days"),
  })
  .meta({ id: "Team" });

const VERDICTS = [
  "better",
  "worse",
  "changed",
  "noise",
  "flat",
  "new",
  "unavailable",
  "none",
] as const;

const delta = z
  .object({
    verdict: z
      .enum(VERDICTS)
      .describe(
        "better/worse: news (significant and large), good or bad for this figure; changed: such news of a figure that is neither (runs, tests); noise: not both; flat: rounds to nothing; new: the prior had no data; unavailable: the prior could not be fetched; none: no data now",
      ),
    text: z
      .string()
      .describe("the change as people read it: +1.2 pp, −8%, new, n/a; empty for none"),
    change: z
      .number()
      .nullable()
      .describe(
        "rates: the change in percentage points; counts and durations: the change as a fraction (0.08 is +8%); null without a number",
      ),
  })
  .meta({ id: "Delta", description: "how a figure moved since the prior period" });

const figure = z
  .object({
    current: z.number().nullable().describe("this period's value; null without data"),
    prior: z.number().nullable().describe("the prior period's value; null without one"),
    delta,
  })
  .meta({ id: "Figure" });

const figures = z
  .object({
    runs: figure,
    run_pass_rate: figure,
    flaky_rate: figure,
    test_pass_rate: figure,
    tests: figure,
    tests_failed: figure,
    tests_timed_out: figure,
    mean_run_duration_ms: figure,
  })
  .meta({
    id: "Figures",
    description:
      "a period's figures, each with its prior value and change. run_pass_rate: passed runs / (passed + failed runs); flaky_rate: flaky results / all results; test_pass_rate: passed results (flaky included) / all results; the three are fractions (0.938 is 93.8%). tests: passed + failed + skipped + timed out. mean_run_duration_ms: milliseconds",
  });

const effects = z
  .object({
    rate_pp: z.number().describe("Σ w̄ᵢ·Δrᵢ: the slices' own rates moving, in percentage points"),
    mix_pp: z.number().describe("Σ r̄ᵢ·Δwᵢ: the runs moving between slices, in percentage points"),
  })
  .meta({
    id: "RateEffects",
    description:
      "a rate's change split by shift-share (w: a slice's share of the rate's denominator, r: its rate, bars: the two periods' mean); rate_pp + mix_pp is the change",
  });

const rateEffects = z
  .object({
    run_pass_rate: effects.optional(),
    flaky_rate: effects.optional(),
    test_pass_rate: effects.optional(),
  })
  .describe("each rate's change split into rate and mix effects; empty for tags");

const slice = z
  .object({
    name: z.string().describe("the branch, the author, the tag set (tags joined by +), or other"),
    other: z
      .boolean()
      .describe("the rest of a partition: the unfiltered counts less every declared slice's"),
    figures: figures.describe("the slice's own figures and changes, each with its own test"),
    effects: rateEffects.describe("this slice's share of each rate effect and mix effect"),
  })
  .meta({ id: "Slice" });

const split = z
  .object({
    dimension: z.enum(["branch", "author", "tags"]),
    partition: z
      .boolean()
      .describe(
        "branches and authors partition the runs (their slices and other add up to the project); tags overlap and do not",
      ),
    effects: rateEffects,
    slices: z.array(slice),
  })
  .meta({
    id: "SliceSplit",
    description: "a project's changes split by the slices of its attribution",
  });

const newsLine = z
  .object({
    kind: z
      .enum(["silent", "alert", "unavailable", "worse", "better", "changed"])
      .describe(
        "silent project, alert firing, project not fetched, a figure that is news: worse, better, or changed (runs and test results, neither good nor bad)",
      ),
    project_id: z.string().nullable().describe("null for the team"),
    name: z.string(),
    text: z.string().describe("the line as people read it: name and what happened"),
    tone: z
      .enum(["bad", "good", "neutral"])
      .describe("bad news mentions and copies the project's owners"),
  })
  .meta({ id: "NewsLine" });

const news = z
  .object({
    summary: z
      .string()
      .describe("the news in one line, as the Slack notification and the mail preheader say it"),
    lines: z.array(newsLine).describe("every line of news, in reading order; empty on a quiet day"),
  })
  .describe("what a digest opens with; for an alert, its transitions in words");

const project = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z
      .enum(["ok", "silent", "unavailable"])
      .describe(
        "silent: runs in the prior period, none in this one; unavailable: could not be fetched",
      ),
    figures: z.union([figures, z.null()]).describe("null when the project could not be fetched"),
    note: z.string().nullable().describe("why the prior period is missing, when it is"),
    dashboard_url: z.string().nullable(),
    slices: z
      .array(split)
      .optional()
      .describe(
        "where its changes moved, by the team's or project's attribution: present only when a figure of the project is news and slices are configured",
      ),
  })
  .meta({ id: "Project" });

const state = z.enum(["ok", "pending", "warn", "critical", "no_data"]).meta({
  id: "AlertState",
  description: "pending: breaching, `for` not met yet; no_data: too few results, or not fetched",
});

const transition = z
  .object({
    kind: z.enum(["fired", "escalated", "de-escalated", "resolved", "reminder"]),
    scope: z.string().describe("a project id, or team"),
    name: z.string().describe("the project's or the team's name"),
    from: z.enum(["new", ...state.options]).meta({
      id: "TransitionFrom",
      description:
        "the state before, or new on the alert's first evaluation of the scope (what it saw, not a change)",
    }),
    to: state,
    value: z.number().nullable().describe("in the alert's unit; null without data"),
    interval: z
      .object({ low: z.number(), high: z.number() })
      .nullable()
      .describe("the Wilson interval in the alert's unit, when confidence is on"),
    threshold: z
      .number()
      .describe("the threshold the value was compared with, in the alert's unit"),
    results: z.number().describe("test results (runs, for the runs metric) behind the value"),
  })
  .meta({ id: "Transition" });

const alert = z.object({
  name: z.string(),
  metric: z.enum(ALERT_METRICS),
  unit: z
    .enum(["percent", "count", "minutes"])
    .describe("percent: 0–100, as the config's thresholds; minutes for mean_run_duration"),
  warn_at: z.number(),
  critical_at: z.number(),
  clear_at: z.number(),
  confidence: z.number().nullable(),
  state,
  transitions: z.array(transition).min(1),
});

const common = {
  version: z.literal(WEBHOOK_BODY_VERSION),
  key: z
    .string()
    .describe("the slot key: names this message in the ledger and is sent as Idempotency-Key"),
  team,
  news,
};

const digestBody = z.object({
  ...common,
  kind: z.literal("digest"),
  digest: z.string().describe("the digest's name in the config"),
  period: z
    .object({ start: isoDate, end: isoDate, prior: period })
    .describe("the period reported (both ends included) and the prior period it is compared with"),
  /** The team's figures: silent and unavailable projects left out, as in every digest. */
  figures,
  projects: z.array(project).describe("every project of the team, needing attention first"),
});

const alertBody = z.object({
  ...common,
  kind: z.literal("alert"),
  /** The window the alert evaluated. */
  period,
  figures: z.null(),
  projects: z.array(project).max(0).describe("empty: an alert's scopes are its transitions"),
  alert,
});

const incidentMember = z
  .object({
    team: z.string().describe("the member alert's team, by its id in the config"),
    alert: z.string().describe("the member alert's name in the config"),
    metric: z.string().describe("the alert's metric, as in the config"),
    scope: z.string().describe('the project id that fired, or "team"'),
    name: z.string().describe("the project (or team) as people read it"),
    value: z
      .number()
      .nullable()
      .describe("its value when it fired, in the alert's unit; null without data"),
    fire_key: z.string().describe("the key of the alert evaluation that announced the fire"),
  })
  .meta({ id: "IncidentMember" });

const incidentBody = z.object({
  version: z.literal(WEBHOOK_BODY_VERSION),
  kind: z.literal("incident"),
  key: z
    .string()
    .describe(
      "the slot key: the incident's when it forms, its key + .resolved when it resolves; sent as Idempotency-Key",
    ),
  at: z.string().describe("when the incident formed or resolved: an ISO instant"),
  incident: z
    .object({
      key: z.string().describe("the incident's key: the same in its open and resolved bodies"),
      state: z
        .enum(["open", "resolved"])
        .describe("open when it forms; resolved once its last member stopped firing"),
      summary: z.string().describe("what fired together, in words"),
      title: z.string().describe("the summary as a title: Incident: … or Resolved incident: …"),
      members: z.array(incidentMember).min(1),
    })
    .describe(
      "many projects firing in one evaluation tick, across teams and alerts: each member's alert is sent on its own too",
    ),
});

/** The body of every webhook request, version 1. */
export const webhookBodySchema = z
  .discriminatedUnion("kind", [digestBody, alertBody, incidentBody])
  .describe(
    "insights-reporter signed webhook body, version 1. Verify X-Insights-Signature before reading it.",
  );

export type WebhookBody = z.infer<typeof webhookBodySchema>;
export type WebhookDigestBody = z.infer<typeof digestBody>;
export type WebhookAlertBody = z.infer<typeof alertBody>;
export type WebhookIncidentBody = z.infer<typeof incidentBody>;
export type WebhookFigures = z.infer<typeof figures>;
export type WebhookProject = z.infer<typeof project>;
