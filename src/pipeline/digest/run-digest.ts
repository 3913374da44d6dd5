import { type DeliveryJob, deliverAll, deliveryWord } from "../../deliver/deliver-all.js";
import type { Chart } from "../../render/charts/trend-chart.js";
import type { Report } from "../../report/types.js";
import { chartsOrNone, fetchChartDaysAhead } from "./chart-stage.js";
import { destinationIds, digestJobs, recordRunFailure } from "./deliver-stage.js";
import { type DigestJob, digestSlot } from "./digest-slot.js";
import type { DigestDeps, DigestOutcome } from "./digest-types.js";
import { renderDigest } from "./render-stage.js";
import { buildDigestReport } from "./report-stage.js";

// One digest, start to finish, in named stages: the slot its fire covers (worked out once) →
// record the slot → collect the team's insights and build the report (totals, deltas,
// significance) → its trend charts, when it has them → each destination kind's rendering and the
// workbook → deliver, each destination recorded in the ledger. Every collaborator is handed in
// (`create-deps.ts` builds the real ones), so the same story runs in the daemon, the CLI, the
// demo and tests.

/**
 * Runs one digest. When the report or its renderings cannot be built (a refused key, say), every
 * open destination is recorded as failed with the reason, so `history` says why the digest did
 * not arrive.
 */
export async function runDigest(job: DigestJob, deps: DigestDeps): Promise<DigestOutcome> {
  const started = Date.now();
  const slot = digestSlot(job);
  const { key, periods } = slot;
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
  const asked = job.digest.charts;
  let built: { report: Report; charts: Chart[]; jobs: DeliveryJob[] };
  try {
    if (asked) fetchChartDaysAhead(job, periods, asked.windowDays, deps);
    const { report } = await buildDigestReport(job, deps, slot);
    const charts = asked ? await chartsOrNone(job, key, report, asked, deps) : [];
    const messages = await renderDigest(job, key, report, charts, deps);
    built = { report, charts, jobs: digestJobs(job, key, report, messages, deps) };
  } catch (error) {
    await recordRunFailure(key, destinations, error, deps);
    throw error;
  }
  const { report, charts, jobs } = built;
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
