import { type AlertJob, alertSlot } from "./alert-slot.js";
import { baselineSpans, withBaselines } from "./alerts/baseline-windows.js";
import { evaluateAlert } from "./alerts/evaluate-alert.js";
import {
  type FireHistory,
  fireHistory,
  firesOf,
  type PastEvaluation,
  recentResolutions,
} from "./alerts/fire-history.js";
import { fromScopeState, toScopeState } from "./alerts/ledger-state.js";
import { scopeWindows, trendDays } from "./alerts/scope-windows.js";
import { applySilences, standingSnoozes } from "./alerts/silencing.js";
import type { Evaluation } from "./alerts/types.js";
import type { AlertConfig, AlertDestinations } from "./config/types.js";
import {
  type DeliveryLedger,
  type DeliveryResult,
  deliverAll,
  deliveryWord,
  type RetryAt,
} from "./deliver/deliver-all.js";
import {
  type AlertNotification,
  buildAlertNotification,
} from "./destinations/alert-notification.js";
import { alertDeliveryJobs } from "./destinations/delivery-jobs.js";
import type { AlertJobDeps } from "./destinations/destination-module.js";
import { opensFire, withFireCharts } from "./destinations/fire-charts-message.js";
import { type AlertClients, DESTINATION_KINDS, DESTINATIONS } from "./destinations/registry.js";
import { collectInsights, collectSpan, type RequestCache } from "./insights/collect-insights.js";
import type { InsightsApi } from "./insights/types.js";
import type { Logger } from "./logger.js";
import { addDays, periodDays, startOfLocalDay } from "./periods/calendar-date.js";
import type { Period } from "./periods/types.js";
import type { ChartPainter } from "./render/charts/draw-chart.js";
import { fireChartInput } from "./render/charts/fire-chart-input.js";
import { buildReport } from "./report/build-report.js";
import { figuresFromCounts } from "./report/figures.js";
import type { Ledger } from "./state/ledger.js";

// One alert evaluation, start to finish: the window its fire covers → insights of the team's
// projects → each scope's sample against its last state (`alerts/`) → the notification,
// rendered → the slot, the new states and the notification recorded in one transaction →
// delivery. A retry of the slot finds the evaluation recorded and sends what it decided:
// it never judges again against states that have already moved.

type AlertStore = Pick<
  Ledger,
  | "alertStates"
  | "recordAlertEvaluation"
  | "getAlertEvaluation"
  | "getSlot"
  | "alertEvaluations"
  | "silences"
  | "acknowledgements"
  | "clearAcknowledgements"
>;

/** The ledger as an alert uses it (`state/` implements it). */
export interface AlertLedger extends DeliveryLedger, AlertStore {}

/** The ledger an alert reads and records in, delivering through `deliveries` (claimed). */
export function alertLedger(store: AlertStore, deliveries: DeliveryLedger): AlertLedger {
  return {
    ...deliveries,
    alertStates: (team, alert) => store.alertStates(team, alert),
    recordAlertEvaluation: (evaluation) => store.recordAlertEvaluation(evaluation),
    getAlertEvaluation: (key) => store.getAlertEvaluation(key),
    getSlot: (key) => store.getSlot(key),
    alertEvaluations: (query) => store.alertEvaluations(query),
    silences: (query) => store.silences(query),
    acknowledgements: (team, alert) => store.acknowledgements(team, alert),
    clearAcknowledgements: (team, alert, fires, at) =>
      store.clearAcknowledgements(team, alert, fires, at),
  };
}

/** `slack`, `email`, …: what sends the alert's messages to each destination kind (null: not sent there). */
export interface AlertDeps extends AlertClients {
  api: InsightsApi;
  /** null: nothing recorded, nothing read (a dry run without a ledger). */
  ledger: AlertLedger | null;
  /** A dry run (`alerts --outbox`): reads states, records nothing, sends to the outbox. */
  dryRun?: boolean;
  cache: RequestCache;
  logger: Logger;
  retryAt?: RetryAt;
  /** The destinations write to an outbox: what they do is "written", never "sent". */
  outbox?: boolean;
  /** Finds an earlier top-level post of a key in a channel (crash recovery of a fire's post). */
  findSlackPost?: AlertJobDeps["findSlackPost"];
  /**
   * Put Acknowledge and Snooze on a firing alert's Slack messages: only where a daemon listens
   * for the presses (`slack.app_token`), or to show what one would post (the demo).
   */
  slackButtons?: boolean;
  /** What draws a fire's chart: the process's painter (`Clients.chartPainter`). */
  chartPainter: ChartPainter;
}

export interface AlertOutcome {
  key: string;
  window: Period;
  /** The evaluation made now; null when a recorded one was re-sent. */
  evaluation: Evaluation | null;
  notification: AlertNotification | null;
  deliveries: DeliveryResult[];
}

/** Runs one evaluation: evaluate and record (or find it recorded) → deliver. */
export async function runAlert(job: AlertJob, deps: AlertDeps): Promise<AlertOutcome> {
  const { key, window } = alertSlot(job);
  const recorded = deps.dryRun ? null : await deps.ledger?.getAlertEvaluation(key);
  let evaluation: Evaluation | null = null;
  let notification: AlertNotification | null;
  if (recorded) {
    notification = recorded.notification;
  } else {
    const measured = await evaluate(job, key, window, deps);
    // Silences and acknowledgements hold back what is posted, never what is recorded.
    const standing = await standingActions(job, measured, deps);
    const silenced = applySilences({
      evaluation: measured,
      rule: job.alert,
      silences: standing.silences,
      acknowledged: standing.acknowledged,
      now: job.fireAt.toISOString(),
    });
    evaluation = silenced.recorded;
    const posted = silenced.posted;
    if (silenced.held.length > 0) {
      deps.logger.info(
        { slot: key, held: silenced.held.map((t) => `${t.scope}:${t.kind}`) },
        "alert transitions held back by a silence or an acknowledgement",
      );
    }
    notification = buildAlertNotification({
      history: await historyOf(job, key, window, posted, deps),
      dashboardUrl: job.team.dashboardUrl,
      owners: Object.fromEntries(job.team.projects.map((p) => [p.id, p.owners])),
      key,
      team: { name: job.team.name, title: job.team.title, timezone: job.team.timezone },
      alert: job.alert,
      period: window,
      mention: job.alert.slack?.mention ?? null,
      evaluation: posted,
      acknowledgements: standing.shown,
      snoozes: standingSnoozes(evaluation.results, standing.silences, job.fireAt.toISOString()),
      buttons: deps.slackButtons === true,
      ...targetsWithClients(job.alert, deps),
      now: job.fireAt.toISOString(),
    });
    const fresh = deps.dryRun || (await record(job, key, window, evaluation, notification, deps));
    if (fresh && !deps.dryRun && standing.cleared.length > 0) {
      await deps.ledger?.clearAcknowledgements(
        job.team.name,
        job.alert.name,
        standing.cleared,
        job.fireAt,
      );
    }
    // Another process recorded this evaluation first: send what it decided, not ours.
    if (!fresh) {
      const theirs = await deps.ledger?.getAlertEvaluation(key);
      notification = theirs?.notification ?? null;
    }
  }
  const ledger = deps.dryRun ? null : deps.ledger;
  const fired = evaluation
    ? evaluation.transitions.filter((t) => t.kind === "fired")
    : (recorded?.results.filter((r) => r.transition === "fired") ?? []);
  const sendable = notification && (await withChartsOfFire(job, window, notification, fired, deps));
  const deliveries = sendable
    ? await deliverAll(
        key,
        alertDeliveryJobs(key, sendable, {
          ...deps,
          since: postedSince(job, window),
          threadTs: threadTsOf(deps),
          targets: job.alert,
        }),
        {
          ...deps,
          ledger,
        },
      )
    : [];
  deps.logger.info(
    {
      slot: key,
      transitions:
        evaluation?.transitions.map((t) => `${t.scope}:${t.from}->${t.to}`) ?? "recorded",
      deliveries: Object.fromEntries(
        deliveries.map((d) => [d.id, deliveryWord(d.status, deps.outbox === true)]),
      ),
    },
    "alert evaluated",
  );
  return { key, window, evaluation, notification, deliveries };
}

/**
 * The notification with its fire's charts (`chart: true`, a rate), drawn for this send from
 * the days of the fired scopes, through the run's request cache (the evaluation's own requests,
 * so nothing is fetched twice). Without charts when there are none to draw, or when drawing
 * fails: the news goes out all the same.
 */
async function withChartsOfFire(
  job: AlertJob,
  window: Period,
  notification: AlertNotification,
  fired: readonly { scope: string; name: string }[],
  deps: AlertDeps,
): Promise<AlertNotification> {
  // Only a fire's first messages carry its chart; a reply in its thread does not.
  const opens = opensFire(notification.slack) || opensFire(notification.email);
  if (!job.alert.chart || fired.length === 0 || !opens) return notification;
  try {
    const spans = alertSpans(window);
    const { renderFireCharts } = await import("./render/charts/fire-charts.js");
    const fetched = await Promise.all(
      [spans.trend, spans.prior].map((span) => collectSpan(deps.api, job.team, span, deps.cache)),
    );
    const input = fireChartInput({
      rule: job.alert,
      window,
      spans,
      projects: job.team.projects,
      fetched,
      fired,
    });
    const charts = await renderFireCharts(input, { painter: deps.chartPainter });
    return withFireCharts(notification, charts);
  } catch (error) {
    deps.logger.warn(
      { alert: job.alert.name, err: String(error) },
      "the fire's chart was left out",
    );
    return notification;
  }
}

/** The spans an evaluation fetches: the trend ending with the window, and the window before. */
function alertSpans(window: Period): { trend: Period; prior: Period } {
  const days = periodDays(window);
  return {
    // A week of days at least, so a daily alert's sparkline shows the week that led up to it.
    trend: { start: addDays(window.end, 1 - trendDays(days)), end: window.end },
    prior: { start: addDays(window.start, -days), end: addDays(window.start, -1) },
  };
}

async function evaluate(
  job: AlertJob,
  key: string,
  window: Period,
  deps: AlertDeps,
): Promise<Evaluation> {
  const days = periodDays(window);
  const { trend, prior } = alertSpans(window);
  const periods = {
    kind: job.alert.window,
    compareTo: "previous_period" as const,
    current: trend,
    prior,
  };
  const projects = await collectInsights(deps.api, job.team, periods, deps.cache);
  const report = buildReport({
    team: { name: job.team.name, title: job.team.title, timezone: job.team.timezone },
    digest: job.alert.name,
    periods,
    generatedAt: job.fireAt.toISOString(),
    dashboardUrl: job.team.dashboardUrl,
    projects,
  });
  const states = new Map(
    ((await deps.ledger?.alertStates(job.team.name, job.alert.name)) ?? []).map((s) => [
      s.scope,
      toScopeState(s),
    ]),
  );
  const windows = scopeWindows(report, days, job.alert.scope);
  return evaluateAlert({
    rule: job.alert,
    windows: job.alert.against
      ? withBaselines(
          windows,
          await baselineFigures(job, window, deps),
          report.projects.flatMap((p) => (p.status === "ok" ? [p.projectId] : [])),
        )
      : windows,
    states,
    now: job.fireAt.toISOString(),
    key,
    resolvedRecently: await resolvedRecently(job, key, window, deps),
  });
}

/** Days of recorded evaluations read back for a fire that resolved lately (a regression). */
const FIRE_LOOKBACK_DAYS = 90;

/** Each scope's fire that resolved within 7 days before this window, from the ledger. */
async function resolvedRecently(job: AlertJob, key: string, window: Period, deps: AlertDeps) {
  const recorded = await deps.ledger?.alertEvaluations({
    team: job.team.name,
    from: addDays(window.end, -FIRE_LOOKBACK_DAYS),
    to: window.end,
  });
  const own = (recorded ?? []).filter((e) => e.alert === job.alert.name && e.key !== key);
  return recentResolutions(own, window.end);
}

/** Each baseline window's figures by project id (null where it could not be fetched). */
async function baselineFigures(job: AlertJob, window: Period, deps: AlertDeps) {
  const spans = await Promise.all(
    baselineSpans(window).map((span) => collectSpan(deps.api, job.team, span, deps.cache)),
  );
  return spans.map(
    (outcomes) =>
      new Map(
        [...outcomes].map(([id, o]) => [
          id,
          o.ok ? figuresFromCounts(o.insights.overall.runs, o.insights.overall.tests) : null,
        ]),
      ),
  );
}

/**
 * The alert's silences and the acknowledgements that still stand: a new escalation of a fire
 * clears its acknowledgement (`cleared`, written once the evaluation is recorded), so it is
 * neither honoured nor shown from this evaluation on.
 */
async function standingActions(job: AlertJob, evaluation: Evaluation, deps: AlertDeps) {
  const ledger = deps.ledger;
  const [silences, acks] = ledger
    ? await Promise.all([
        ledger.silences({ team: job.team.name }),
        ledger.acknowledgements(job.team.name, job.alert.name),
      ])
    : [[], []];
  const escalated = new Set(
    evaluation.transitions.flatMap((t) =>
      t.kind === "escalated" && t.threadKey ? [t.threadKey] : [],
    ),
  );
  const standing = acks.filter((a) => !escalated.has(a.fireKey));
  return {
    silences: silences.filter((s) => s.alert === job.alert.name),
    acknowledged: new Set(standing.map((a) => a.fireKey)),
    // The latest acknowledgement of each fire is the one its first message shows.
    shown: Object.fromEntries(
      standing.map((a) => [a.fireKey, { by: a.author, at: a.acknowledgedAt.toISOString() }]),
    ),
    cleared: [...new Set(acks.filter((a) => escalated.has(a.fireKey)).map((a) => a.fireKey))],
  };
}

/**
 * What the ledger remembers of the fires this evaluation speaks of: the window each fired in
 * and its peak since, so a resolution can say "after 3 days (peak 9.5% on Nov 11)". Read only.
 */
async function historyOf(
  job: AlertJob,
  key: string,
  window: Period,
  evaluation: Evaluation,
  deps: AlertDeps,
): Promise<Record<string, FireHistory>> {
  const ledger = deps.ledger;
  const fires = firesOf(evaluation);
  if (!ledger || evaluation.transitions.length === 0 || fires.length === 0) return {};
  const roots = await Promise.all(fires.map((k) => ledger.getAlertEvaluation(k)));
  const starts = roots.flatMap((r) => (r ? [r.period.start] : []));
  if (starts.length === 0) return {};
  const from = starts.reduce((a, b) => (a < b ? a : b));
  const recorded = await ledger.alertEvaluations({ team: job.team.name, from, to: window.end });
  const now: PastEvaluation = {
    key,
    period: window,
    results: evaluation.results.map((r) => ({ scope: r.scope, value: r.sample.value })),
  };
  const past = [...recorded.filter((e) => e.alert === job.alert.name && e.key !== key), now];
  return fireHistory(job.alert.metric, evaluation, past);
}

async function record(
  job: AlertJob,
  key: string,
  window: Period,
  evaluation: Evaluation,
  notification: AlertNotification | null,
  deps: AlertDeps,
): Promise<boolean> {
  if (!deps.ledger) return true;
  const destinations = DESTINATION_KINDS.flatMap((kind) => {
    const message = notification?.[kind];
    return message ? [DESTINATIONS[kind].id(message as never)] : [];
  });
  return deps.ledger.recordAlertEvaluation({
    slot: {
      key,
      team: job.team.name,
      kind: "alert",
      job: job.alert.name,
      fireAt: job.fireAt,
      period: window,
      destinations,
    },
    alert: job.alert.name,
    states: evaluation.results.map((r) => fromScopeState(job.team.name, job.alert.name, r.state)),
    results: evaluation.results.map(({ scope, name, sample, verdict, state }) => ({
      scope,
      name,
      value: sample.value,
      size: sample.size,
      verdict,
      state: state.state,
      transition: evaluation.transitions.find((t) => t.scope === scope)?.kind ?? null,
    })),
    notification,
  });
}

/** The ts of a fire's first message in a channel, from its delivery in the ledger. */
function threadTsOf(deps: AlertDeps) {
  return async (rootKey: string, channel: string) => {
    const root = await deps.ledger?.getSlot(rootKey);
    const id = DESTINATIONS.slack.id({ channel });
    const delivery = root?.deliveries.find((d) => d.destination === id);
    return delivery?.slackTs ?? null;
  };
}

/** The alert's destinations that have a client to send them; null for the others. */
function targetsWithClients(alert: AlertConfig, clients: AlertClients): AlertDestinations {
  return Object.fromEntries(
    DESTINATION_KINDS.map((kind) => [kind, clients[kind] ? alert[kind] : null]),
  ) as AlertDestinations;
}

/** No evaluation's message precedes the end of its window: where to start looking for one. */
function postedSince(job: AlertJob, window: Period): Date {
  return startOfLocalDay(addDays(window.end, 1), job.team.timezone);
}
