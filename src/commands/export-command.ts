import { IANAZone } from "luxon";
import { createApiClient } from "../create-deps.js";
import { UsageError } from "../errors.js";
import { collectInsights, createRequestCache } from "../insights/collect-insights.js";
import { periodForRange, priorOfRange } from "../periods/period-for-range.js";
import { writeWorkbookFile } from "../render/workbook-file.js";
import { buildReport } from "../report/build-report.js";
import { findTeam, loadCommandConfig } from "./command-context.js";

export interface ExportOptions {
  team: string;
  project?: string;
  from: string;
  to: string;
  out: string;
  tz?: string;
  config?: string;
}

/**
 * `export`: a workbook for any range the API serves, compared with the equal range just before.
 * Exit 1 when a project could not be fetched (the workbook is still written, and says which).
 */
export async function exportCommand(
  opts: ExportOptions,
  out: (line: string) => void,
  now: () => Date = () => new Date(),
  progress: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: false });
  const team = findTeam(config, opts.team);
  const timezone = opts.tz ?? team.timezone;
  if (!IANAZone.isValidZone(timezone)) {
    throw new UsageError(`--tz "${timezone}" is not an IANA timezone name, e.g. Europe/Berlin`);
  }
  const projects = opts.project
    ? team.projects.filter((p) => p.id === opts.project)
    : team.projects;
  if (projects.length === 0) {
    throw new UsageError(
      `team "${team.name}" has no project "${opts.project}" — projects: ${team.projects.map((p) => p.id).join(", ")}`,
    );
  }
  const current = periodForRange(opts.from, opts.to);
  const periods = {
    kind: "previous_day" as const,
    compareTo: "previous_period" as const,
    current,
    prior: priorOfRange(current),
  };

  const api = createApiClient(config);
  try {
    const showProgress = progress.isTTY === true && projects.length >= 10;
    const collected = await collectInsights(
      api,
      { projects, timezone },
      periods,
      createRequestCache(),
      {
        onProjectDone: showProgress
          ? (done, total) => drawProgress(progress, done, total)
          : undefined,
      },
    );
    if (showProgress) progress.write("\n");
    refuseBeyondLookback(collected);
    const report = buildReport({
      team: { name: team.name, title: team.title, timezone },
      digest: "export",
      periods,
      generatedAt: now().toISOString(),
      dashboardUrl: team.dashboardUrl,
      projects: collected,
    });
    await writeWorkbookFile(report, opts.out);
    const unavailable = report.projects.filter((p) => p.status === "unavailable");
    out(
      `wrote ${opts.out}: ${report.projects.length} projects, ${current.start}..${current.end} vs ${periods.prior.start}..${periods.prior.end} (${timezone})`,
    );
    for (const p of unavailable)
      if (p.status === "unavailable")
        out(`  ${p.name} (${p.projectId}) unavailable: ${p.reason.message}`);
    if (report.total.priorNote) out(`  ${report.total.priorNote}`);
    return unavailable.length > 0 ? 1 : 0;
  } finally {
    await api.close();
  }
}

/** A range the API will not serve at all is the user's to fix: say the earliest date allowed. */
function refuseBeyondLookback(collected: Awaited<ReturnType<typeof collectInsights>>): void {
  const refused = collected.find((p) => !p.current.ok && p.current.error.code === "LOOKBACK");
  if (refused && !refused.current.ok) {
    throw new UsageError(`--from is too early: ${refused.current.error.message}`);
  }
}

function drawProgress(stream: NodeJS.WriteStream, done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  stream.write(
    `\r  fetching [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} projects`,
  );
}
