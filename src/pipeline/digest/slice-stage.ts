import { collectSlices, sliceQueries } from "../../insights/collect-slices.js";
import { digestNews } from "../../render/digest-news.js";
import { changeRules, heldRules } from "../../report/build-report.js";
import { projectSlices } from "../../report/project-slices.js";
import type { AvailableProject, Report } from "../../report/types.js";
import type { DigestJob, DigestSlot } from "./digest-slot.js";
import type { DigestDeps } from "./digest-types.js";

// The digest's slice stage (issue 37): for each project one of whose figures is news and that
// has an `attribution`, its declared slices of both periods are fetched (through the day store,
// each slice a filter set of its own) and the project's changes split by them. A digest without
// news asks for nothing more. A median baseline is not split: medians of slices do not add up.

/** The report with `slices` on each project whose news can be split; the same report otherwise. */
export async function sliceNews(
  job: DigestJob,
  report: Report,
  deps: Pick<DigestDeps, "api" | "cache" | "logger">,
  slot: DigestSlot,
): Promise<Report> {
  const { team, digest } = job;
  if (slot.periods.baseline) return report;
  // Most teams declare no attribution: their news need not be worked out here at all.
  if (!team.projects.some((p) => p.attribution)) return report;
  const newsOf = new Set(
    digestNews(report)
      .lines.filter((l) => l.figure !== undefined && l.projectId !== null)
      .map((l) => l.projectId),
  );
  const rules = changeRules(slot.periods, digest.minChangePp);
  const sliced = await Promise.all(
    report.projects.map(async (project) => {
      const attribution = team.projects.find((p) => p.id === project.projectId)?.attribution;
      if (project.status !== "ok" || !newsOf.has(project.projectId) || !attribution) {
        return project;
      }
      const config = team.projects.find((p) => p.id === project.projectId);
      if (!config || project.prior === null) return project;
      const queries = sliceQueries(config, attribution);
      if (queries.length === 0) return project;
      const inputs = await collectSlices(
        deps.api,
        queries,
        team.timezone,
        slot.periods,
        deps.cache,
      );
      const { slices, problems } = projectSlices(
        project,
        inputs,
        heldRules(rules, project.missingDays),
      );
      // Once per project and split: the digest is shown without that split.
      for (const problem of problems) deps.logger.warn({ slot: slot.key }, problem);
      return slices ? ({ ...project, slices } satisfies AvailableProject) : project;
    }),
  );
  return { ...report, projects: sliced };
}
