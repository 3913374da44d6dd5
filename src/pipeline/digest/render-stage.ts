import type { DigestConfig } from "../../config/types.js";
import type { DigestRenderInput } from "../../destinations/destination-module.js";
import {
  DESTINATION_KINDS,
  DESTINATIONS,
  type DestinationKind,
  type DigestMessages,
} from "../../destinations/registry.js";
import type { Attachment } from "../../messages.js";
import { alertRows } from "../../render/alert/digest-alerts.js";
import type { Chart } from "../../render/charts/trend-chart.js";
import type { AlertRow } from "../../render/workbook/workbook.js";
import { workbookFileName } from "../../render/workbook/workbook-name.js";
import type { Report } from "../../report/types.js";
import type { DigestJob } from "./digest-slot.js";
import type { DigestDeps } from "./digest-types.js";

// The digest's render stage: the workbook, when it attaches one, then each destination kind's
// own rendering of the report (destinations/<kind>/), for the destinations it has a client for.

/**
 * The digest rendered for each destination it has a client for, by that kind's own renderer
 * (destinations/<kind>/); the workbook is made once first, when any destination attaches it.
 */
export async function renderDigest(
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
  const input: DigestRenderInput = {
    key,
    report,
    owners: Object.fromEntries(team.projects.map((p) => [p.id, p.owners])),
    workbook,
    charts,
    workbookWhere: workbookWhere(digest),
  };
  return Object.fromEntries(
    DESTINATION_KINDS.map(<K extends DestinationKind>(kind: K) => {
      const target = digest[kind];
      return [
        kind,
        target && deps[kind] ? DESTINATIONS[kind].renderDigest(target as never, input) : null,
      ];
    }),
  ) as DigestMessages;
}

/** Whether the digest attaches the workbook, to its Slack post or its mail. */
export function attachesWorkbook(digest: DigestConfig): boolean {
  return Boolean(digest.slack?.attachXlsx || digest.email?.attachXlsx);
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
  return import("../../render/workbook/workbook.js");
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
