import type { SlackBlock } from "../../../messages.js";
import { UNAVAILABLE_WORDS } from "../../../render/digest-news.js";
import { formatCount, formatRate, sparkline } from "../../../render/format.js";
import { linksPerProject, projectDashboardUrl } from "../../../render/project-links.js";
import { idAddsToName } from "../../../render/project-name.js";
import { truncateText } from "../../../render/truncate-text.js";
import type { AvailableProject, ProjectReport } from "../../../report/types.js";
import { escapeMrkdwn, mrkdwnLink } from "./escape-mrkdwn.js";
import { deltaCue } from "./slack-delta-cue.js";
import { SLACK_LIMITS } from "./slack-limits.js";

const NAME_CHARS = 60;
const FILTER_CHARS = 80;

/**
 * One project as a mrkdwn section field (the layout when a table does not fit, and the thread's
 * detail): name linked to its dashboard, id and filters, then its figures with deltas and the
 * flaky rate by day. Everything from the API or config is escaped.
 */
export function projectField(project: ProjectReport, dashboardUrl: string | null): string {
  const lines = [titleLine(project, dashboardUrl)];
  if (project.status === "unavailable") {
    // The reason and its advice are for the operator (log, history), not the team's channel.
    lines.push(`\u26A0\uFE0F ${UNAVAILABLE_WORDS}`);
  } else {
    lines.push(...figureLines(project));
  }
  return truncateText(lines.join("\n"), SLACK_LIMITS.fieldChars);
}

/** Fields packed ten to a section, Slack's limit. */
export function fieldSections(fields: readonly string[]): SlackBlock[] {
  const sections: SlackBlock[] = [];
  for (let i = 0; i < fields.length; i += SLACK_LIMITS.fields) {
    const chunk = fields.slice(i, i + SLACK_LIMITS.fields);
    sections.push({ type: "section", fields: chunk.map((text) => ({ type: "mrkdwn", text })) });
  }
  return sections;
}

function titleLine(project: ProjectReport, dashboardUrl: string | null): string {
  const name = truncateText(project.name || project.projectId, NAME_CHARS);
  const title =
    dashboardUrl !== null && linksPerProject(dashboardUrl)
      ? mrkdwnLink(projectDashboardUrl(dashboardUrl, project.projectId), name)
      : escapeMrkdwn(name);
  const parts = [`*${title}*`];
  if (idAddsToName(project.name, project.projectId)) {
    parts.push(`\`${escapeMrkdwn(truncateText(project.projectId, NAME_CHARS))}\``);
  }
  const filters = filterText(project);
  if (filters !== "") parts.push(escapeMrkdwn(truncateText(filters, FILTER_CHARS)));
  return parts.join(" \u00b7 ");
}

function filterText(project: ProjectReport): string {
  const { branch, author, tags } = project.filters;
  const parts: string[] = [];
  if (branch !== null) parts.push(`branch ${branch}`);
  if (author !== null) parts.push(`author ${author}`);
  if (tags.length > 0) parts.push(`tags ${tags.join(", ")}`);
  return parts.join(", ");
}

function figureLines(project: AvailableProject): string[] {
  const { current: f, deltas: d } = project;
  const lines = [
    `Runs ${formatCount(f.runs)} ${deltaCue("runs", d.runs)}`.trimEnd(),
    `Run pass ${formatRate(f.runPassRate)} ${deltaCue("runPassRate", d.runPassRate)}`.trimEnd(),
    `Flaky ${formatRate(f.flakyRate)} ${deltaCue("flakyRate", d.flakyRate)}`.trimEnd(),
  ];
  if (f.tests > 0) {
    // Counts are news like rates: the thread shows their change, so a red team is explained.
    const failed = `Failed ${formatCount(f.testsFailed)} ${deltaCue("testsFailed", d.testsFailed)}`;
    const timedOut = `timed out ${formatCount(f.testsTimedOut)} ${deltaCue("testsTimedOut", d.testsTimedOut)}`;
    lines.push(`${failed.trimEnd()} \u00b7 ${timedOut.trimEnd()}`);
  }
  if (project.daily.length > 1) {
    // Its own scale, as in the table: the same project has the same shape wherever it is shown.
    const trend = sparkline(project.daily.map((p) => p.figures.flakyRate));
    lines.push(`Flaky by day ${trend}`);
  }
  if (project.priorNote !== null) lines.push(`_${escapeMrkdwn(project.priorNote)}_`);
  return lines;
}
