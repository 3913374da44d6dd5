import type { DigestConfig } from "./config/types.js";
import {
  type DeliveryJob,
  type DeliveryLedger,
  type DeliveryResult,
  deliverAll,
  deliveryWord,
  type RetryAt,
} from "./deliver/deliver-all.js";
import { digestDeliveryJobs } from "./destinations/delivery-jobs.js";
import type { FitEmail } from "./destinations/destination-module.js";
import { messageIdForKey } from "./destinations/email/email-message-id.js";
import { emailCharts } from "./destinations/email/messages/email-charts.js";
import { renderDigestEmail } from "./destinations/email/messages/email-digest.js";
import { fitEmailToSize } from "./destinations/email/messages/fit-email-to-size.js";
import { renderTeamsDigest } from "./destinations/msteams/messages/teams-digest.js";
import {
  DESTINATION_KINDS,
  DESTINATIONS,
  type DigestClients,
  type DigestMessages,
} from "./destinations/registry.js";
import { renderSlackDigest } from "./destinations/slack/messages/slack-digest.js";
import { webhookDigestBody } from "./destinations/webhook/messages/webhook-digest.js";
import { type DigestJob, digestSlot } from "./digest-slot.js";
import { UpstreamError } from "./errors.js";
import { collectInsights, collectSpan, type RequestCache } from "./insights/collect-insights.js";
import type { InsightsApi } from "./insights/types.js";
import type { Logger } from "./logger.js";
import type { Attachment } from "./messages.js";
import { addDays, startOfLocalDay } from "./periods/calendar-date.js";
import { chartWindow } from "./periods/chart-window.js";
import type { PeriodPair } from "./periods/types.js";
import { alertRows, firingAlertsOf } from "./render/alert/digest-alerts.js";
import type { ChartPainter } from "./render/charts/draw-chart.js";
import type { Chart } from "./render/charts/trend-chart.js";
import type { AlertRow } from "./render/workbook/workbook.js";
import { exportCommandLine, workbookFileName } from "./render/workbook/workbook-name.js";
import { buildReport } from "./report/build-report.js";
import type { Report } from "./report/types.js";
import type { AlertEvaluation, AlertState, NewSlot } from "./state/ledger.js";

// One digest, start to finish: the period its fire covers → insights of the team's projects → the
// report (totals, deltas, significance) → its trend charts, when it has them → Slack message, email
// and workbook → delivery, each destination recorded in the ledger. Every collaborator is handed in
// (`create-deps.ts` builds the real ones), so the same story runs in the daemon, the CLI, the demo
// and tests.

/** The ledger as a digest uses it: the slot first, then each delivery (`state/` implements it). */
export interface DigestLedger extends DeliveryLedger {
  recordSlot(slot: NewSlot): Promise<boolean>;
}

/** `slack`, `email`, …: what sends the digest to each destination kind (null: not sent there). */
export interface DigestDeps extends DigestClients {
  api: InsightsApi;
  ledger: DigestLedger | null;
  cache: RequestCache;
  logger: Logger;
  /** For the daemon's retries; the CLI gives up at once. */
  retryAt?: RetryAt;
  /** The destinations write to an outbox: what they do is "written", never "sent". */
  outbox?: boolean;
  /** The team's alerts firing now (from the ledger), shown first in the digest. */
  firingAlerts?: (team: string) => Promise<readonly AlertState[]>;
  /**
   * What draws the charts: the process's painter (`Clients.chartPainter`, a chart worker in the
   * built package). Required, so no caller draws on the daemon's thread without saying so.
   */
  chartPainter: ChartPainter;
  /** The team's alert evaluations within a period (from the ledger), for the workbook. */
  alertEvaluations?: (query: {
    team: string;
    from: string;
    to: string;
  }) => Promise<readonly AlertEvaluation[]>;
}

export interface DigestOutcome {
  key: string;
  report: Report;
  deliveries: DeliveryResult[];
  /** The trend charts the digest carried; none without `charts` in its config. */
  charts: Chart[];
}

/** Builds the report a digest fired at `fireAt` shows, and the slot key that names it. */
export async function buildDigestReport(
  job: DigestJob,
  deps: Pick<DigestDeps, "api" | "cache" | "logger" | "firingAlerts">,
): Promise<{ key: string; report: Report }> {
  const { team, digest, fireAt } = job;
  const { key, periods } = digestSlot(job);
  const projects = await collectInsights(deps.api, team, periods, deps.cache, {
    onProjectListError: (error) =>
      deps.logger.warn(
        { slot: key, err: String(error) },
        "could not list projects; showing ids where config has no name",
      ),
  });
  const report = buildReport({
    team: { name: team.name, title: team.title, timezone: team.timezone },
    digest: digest.name,
    periods,
    generatedAt: fireAt.toISOString(),
    dashboardUrl: team.dashboardUrl,
    projects,
    alerts: firingAlertsOf(team, (await deps.firingAlerts?.(team.name)) ?? []),
    minChangePp: digest.minChangePp,
  });
  refuseEmptyReport(key, report);
  return { key, report };
}

/**
 * A digest in which no project could be fetched says nothing but "unavailable": it is not
 * sent. The run fails instead, so the CLI exits 1 and the daemon retries the slot.
 */
function refuseEmptyReport(key: string, report: Report): void {
  const reasons = new Set<string>();
  for (const project of report.projects) {
    if (project.status !== "unavailable") return;
    reasons.add(project.reason.message);
  }
  if (reasons.size === 0) return; // a team without projects is refused by the config
  throw new UpstreamError(
    `${key}: none of the team's ${report.projects.length} projects could be fetched — ${[...reasons].join("; ")}`,
    { slot: key },
  );
}

/**
 * Runs one digest: record the slot → report → render → deliver to every destination → record.
 * When the report or its renderings cannot be built (a refused key, say), every open destination
 * is recorded as failed with the reason, so `history` says why the digest did not arrive.
 */
export async function runDigest(job: DigestJob, deps: DigestDeps): Promise<DigestOutcome> {
  const started = Date.now();
  const { key, periods } = digestSlot(job);
  const destinations = destinationIds(job.digest, deps);
  await deps.ledger?.recordSlot({
    key,
    team: job.team.name,
    kind: "digest",
    job: job.digest.name,
    fireAt: job.fireAt,
    period: periods.current,
    destinations,
  });
  let report: Report;
  let jobs: DeliveryJob[];
  let charts: Chart[];
  try {
    const building = buildDigestReport(job, deps);
    if (job.digest.charts) fetchChartDaysAhead(job, periods, job.digest.charts.windowDays, deps);
    ({ report } = await building);
    charts = job.digest.charts ? await chartsOrNone(job, key, report, job.digest.charts, deps) : [];
    const messages = await renderDigest(job, key, report, charts, deps);
    jobs = withNote(
      digestDeliveryJobs(key, messages, deliveryDeps(job, report, deps)),
      operatorNote(report),
    );
  } catch (error) {
    await recordRunFailure(key, destinations, error, deps);
    throw error;
  }
  const deliveries = await deliverAll(key, jobs, deps);
  deps.logger.info(
    {
      slot: key,
      period: `${report.periods.current.start}..${report.periods.current.end}`,
      projects: report.projects.length,
      deliveries: Object.fromEntries(
        deliveries.map((d) => [d.id, deliveryWord(d.status, deps.outbox === true)]),
      ),
      ms: Date.now() - started,
    },
    "digest done",
  );
  return { key, report, deliveries, charts };
}

/**
 * What the operator must fix about a digest that went out: each project left out because it
 * could not be fetched, with the reason and its fix. The channel names the project without the
 * advice; this goes with the deliveries to the ledger, so `history` shows it. Null: nothing.
 */
function operatorNote(report: Report): string | null {
  const left = report.projects.flatMap((p) =>
    p.status === "unavailable" ? [`left out ${p.name} (${p.projectId}): ${p.reason.message}`] : [],
  );
  return left.length === 0 ? null : left.join("; ");
}

/** The jobs, each delivery recorded with `note` (see `Receipt.note`). */
function withNote(jobs: DeliveryJob[], note: string | null): DeliveryJob[] {
  if (note === null) return jobs;
  return jobs.map((job) => ({
    ...job,
    send: async (progress) => ({ ...(await job.send(progress)), note }),
    ...(job.recover
      ? {
          recover: async (progress) => {
            const found = await job.recover?.(progress);
            return found ? { ...found, note } : null;
          },
        }
      : {}),
  }));
}

/** The destinations this digest delivers to with the clients at hand, as ledger ids. */
function destinationIds(digest: DigestConfig, deps: DigestClients): string[] {
  return DESTINATION_KINDS.flatMap((kind) => {
    const target = digest[kind];
    return target && deps[kind] ? [DESTINATIONS[kind].id(target as never)] : [];
  });
}

async function recordRunFailure(
  key: string,
  destinations: string[],
  error: unknown,
  deps: DigestDeps,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  for (const id of destinations) {
    const before = await deps.ledger?.beginAttempt(key, id);
    // Sent, or left alone (a later retry, given up, another process sending it): untouched.
    if (!before || before.state === "sent" || before.state === "later") continue;
    const next = deps.retryAt?.(before.attempts + 1) ?? null;
    await deps.ledger?.markFailed(key, id, message, next, before.claim);
  }
}

/**
 * The digest rendered for each destination it has: the Slack post (with the workbook, when it
 * attaches one) and the mail (with the charts, when the digest has them). Pure renderers; the
 * workbook and the charts are the ones that load a library.
 */
async function renderDigest(
  job: DigestJob,
  key: string,
  report: Report,
  charts: readonly Chart[],
  deps: DigestDeps,
): Promise<DigestMessages> {
  const { digest, team } = job;
  const workbook = attachesWorkbook(digest)
    ? await workbookAttachment(team.name, report, {
        ...(await workbookAlerts(job, report, deps)),
        charts,
      })
    : undefined;
  const mailCharts = emailCharts(charts);
  const slack = digest.slack && deps.slack ? digest.slack : null;
  const email = digest.email && deps.email ? digest.email : null;
  const owners = Object.fromEntries(team.projects.map((p) => [p.id, p.owners]));
  const msteams = digest.msteams && deps.msteams ? digest.msteams : null;
  const webhook = digest.webhook && deps.webhook ? digest.webhook : null;
  return {
    slack: slack && {
      channel: slack.channel,
      post: renderSlackDigest(report, { key, owners }),
      file: slack.attachXlsx ? workbook : undefined,
      charts: charts.map((c) => ({
        filename: `${c.name}.png`,
        content: c.png,
        contentType: "image/png",
      })),
    },
    email: email && {
      ...renderDigestEmail(report, {
        key,
        workbook: email.attachXlsx && workbook ? workbook.filename : null,
        owners,
        charts: mailCharts.images,
      }),
      to: email.to,
      attachments: [...mailCharts.attachments, ...(email.attachXlsx && workbook ? [workbook] : [])],
      messageId: messageIdForKey(key),
    },
    msteams: msteams && {
      destination: msteams.destination,
      card: renderTeamsDigest(report, { workbookWhere: workbookWhere(digest) }),
    },
    webhook: webhook && {
      destination: webhook.destination,
      body: JSON.stringify(webhookDigestBody(report, key)),
    },
  };
}

/**
 * Asks for the chart window's days right after the period's, not once the report is built: they
 * queue behind this digest's own requests, so in a cycle of many digests each is drawn as soon as
 * its team's answers are in, not after every team's report. `digestCharts` then finds the same
 * requests in the run's cache; what fails here fails there again, and is handled there. A digest
 * whose report then fails (a refused key, every project down) has asked for its window in vain:
 * one more request a project, retried as any is, and never delivered.
 */
function fetchChartDaysAhead(
  job: DigestJob,
  periods: PeriodPair,
  windowDays: number,
  deps: Pick<DigestDeps, "api" | "cache">,
): void {
  collectSpan(deps.api, job.team, chartWindow(periods, windowDays), deps.cache).catch(() => {});
}

/**
 * The charts, or none when they cannot be drawn or their days fetched: the digest still goes
 * out, its text complete without them, and the log says why they are missing.
 */
async function chartsOrNone(
  job: DigestJob,
  key: string,
  report: Report,
  charts: { windowDays: number },
  deps: DigestDeps,
): Promise<Chart[]> {
  try {
    return await digestCharts(job, report, charts.windowDays, deps);
  } catch (error) {
    deps.logger.warn({ slot: key, err: String(error) }, "charts left out of the digest");
    return [];
  }
}

/**
 * The digest's trend charts: each project's days over the chart window, through the run's
 * request cache (and the day store behind `api`, when there is one), drawn by the chart
 * module, loaded on the first digest that has charts.
 */
export async function digestCharts(
  job: Pick<DigestJob, "team">,
  report: Report,
  windowDays: number,
  deps: Pick<DigestDeps, "api" | "cache" | "chartPainter">,
): Promise<Chart[]> {
  const window = chartWindow(report.periods, windowDays);
  const fetched = await collectSpan(deps.api, job.team, window, deps.cache);
  const { digestChartData, renderDigestCharts } = await import("./render/charts/digest-charts.js");
  return renderDigestCharts(report, digestChartData(report, window, fetched, job.team.alerts), {
    painter: deps.chartPainter,
  });
}

/** What the digest's deliveries need besides the destinations: the size cap, where to look. */
function deliveryDeps(job: DigestJob, report: Report, deps: DigestDeps) {
  const hint = exportCommandLine(job.team.name, report.periods.current);
  return {
    ...clientsOf(deps),
    logger: deps.logger,
    fitEmail: ((message, cap) => fitEmailToSize(message, { ...cap, hint })) satisfies FitEmail,
    since: startOfLocalDay(addDays(report.periods.current.end, 1), job.team.timezone),
    targets: job.digest,
  };
}

/** Whether the digest attaches the workbook, to its Slack post or its mail. */
export function attachesWorkbook(digest: DigestConfig): boolean {
  return Boolean(digest.slack?.attachXlsx || digest.email?.attachXlsx);
}

/** The digest's clients, one per destination kind. */
function clientsOf(deps: DigestClients): DigestClients {
  return Object.fromEntries(DESTINATION_KINDS.map((kind) => [kind, deps[kind]])) as DigestClients;
}

/** Where a reader of the Teams card finds every project: the workbook this digest sends, else `export`. */
function workbookWhere(digest: DigestConfig): string {
  if (digest.email?.attachXlsx) return `in the workbook mailed to ${digest.email.to.join(", ")}`;
  if (digest.slack?.attachXlsx)
    return `in the workbook in the Slack digest's thread (${digest.slack.channel})`;
  return "in the workbook that insights-reporter export writes";
}

/**
 * The workbook renderer, and exceljs with it: loaded only where a digest attaches a workbook,
 * so a process whose digests attach none never holds it in memory. Its import holds the event
 * loop for a while, so the daemon loads it at start rather than in its first digest.
 */
export function loadWorkbookRenderer() {
  return import("./render/workbook/workbook.js");
}

/** The digest's workbook as an attachment. */
async function workbookAttachment(
  team: string,
  report: Report,
  options: { alerts?: AlertRow[]; charts?: readonly Chart[] },
): Promise<Attachment> {
  const { renderWorkbook, XLSX_CONTENT_TYPE } = await loadWorkbookRenderer();
  return {
    filename: workbookFileName(team, report.periods.current),
    content: await renderWorkbook(report, options),
    contentType: XLSX_CONTENT_TYPE,
  };
}

/** The Alerts sheet's rows: every scope of every alert evaluation of the period, when any ran. */
async function workbookAlerts(
  job: DigestJob,
  report: Report,
  deps: DigestDeps,
): Promise<{ alerts?: AlertRow[] }> {
  const { start, end } = report.periods.current;
  const query = { team: job.team.name, from: start, to: end };
  const evaluations = (await deps.alertEvaluations?.(query)) ?? [];
  if (evaluations.length === 0) return {};
  return { alerts: evaluations.flatMap((e) => alertRows(job.team, e)) };
}
