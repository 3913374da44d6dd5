import { UpstreamError } from "../../errors.js";
import { collectInsights } from "../../insights/collect-insights.js";
import { firingAlertsOf } from "../../render/alert/digest-alerts.js";
import { buildReport } from "../../report/build-report.js";
import type { Report } from "../../report/types.js";
import { type DigestJob, type DigestSlot, digestSlot } from "./digest-slot.js";
import type { DigestDeps } from "./digest-types.js";
import { sliceNews } from "./slice-stage.js";

// The digest's collect and report stages: the insights of the team's projects over the slot's
// periods → the report (totals, deltas, significance), refused when no project could be fetched
// → where its news moved, by the slices of projects with news (slice-stage.ts).

/** Builds the report a digest fired at `fireAt` shows, and the slot key that names it. */
export async function buildDigestReport(
  job: DigestJob,
  deps: Pick<DigestDeps, "api" | "cache" | "logger" | "firingAlerts">,
  slot: DigestSlot = digestSlot(job),
): Promise<{ key: string; report: Report }> {
  const { team, digest, fireAt } = job;
  const { key, periods } = slot;
  const projects = await collectInsights(deps.api, team, periods, deps.cache, {
    onProjectListError: (error) =>
      deps.logger.warn(
        { slot: key, err: String(error) },
        "could not list projects; showing ids where config has no name",
      ),
  });
  const built = buildReport({
    team: { name: team.name, title: team.title, timezone: team.timezone },
    digest: digest.name,
    periods,
    generatedAt: fireAt.toISOString(),
    dashboardUrl: team.dashboardUrl,
    projects,
    alerts: firingAlertsOf(team, (await deps.firingAlerts?.(team.name)) ?? []),
    minChangePp: digest.minChangePp,
  });
  refuseEmptyReport(key, built);
  const report = await sliceNews(job, built, deps, slot);
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
