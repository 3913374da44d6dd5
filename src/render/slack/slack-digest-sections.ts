import type { SlackBlock } from "../../messages.js";
import type { FiringAlert, Mover, ProjectReport, UnavailableProject } from "../../report/types.js";
import { formatPp, formatRate } from "../format.js";
import { escapeMrkdwn } from "./escape-mrkdwn.js";
import { TONE_MARK } from "./slack-delta-cue.js";
import { SLACK_LIMITS, truncateText } from "./slack-limits.js";
import { unavailableLine } from "./slack-project-field.js";

const NAME_CHARS = 60;
// Room left in a section for the "… and N more" line.
const LIST_CHARS = SLACK_LIMITS.sectionChars - 200;

const FIGURE_NAME = { flakyRate: "flaky rate", runPassRate: "run pass rate" } as const;

/** Projects that got significantly worse, worst first; null when none did. */
export function moversSection(movers: readonly Mover[]): SlackBlock | null {
  const lines = movers.map((m) => {
    const name = escapeMrkdwn(truncateText(m.name, NAME_CHARS));
    const change = formatPp(m.pp);
    return `\u2022 *${name}*: ${FIGURE_NAME[m.figure]} ${formatRate(m.prior)} \u2192 ${formatRate(m.current)} (${TONE_MARK.bad} ${change})`;
  });
  return listSection("*Top movers* (significantly worse)", lines);
}

/** Firing alerts, critical first; null when none fire. */
export function alertsSection(
  alerts: readonly FiringAlert[],
  projects: readonly ProjectReport[],
): SlackBlock | null {
  const names = new Map(projects.map((p) => [p.projectId, p.name]));
  const ordered = [...alerts].sort((a, b) => severityRank(a) - severityRank(b));
  const lines = ordered.map((a) => {
    const mark = a.severity === "critical" ? TONE_MARK.bad : "\u{1F7E0}";
    const scope = a.projectId === null ? "team" : (names.get(a.projectId) ?? a.projectId);
    const what = `${escapeMrkdwn(truncateText(a.alert, NAME_CHARS))} \u00b7 ${escapeMrkdwn(truncateText(scope, NAME_CHARS))}`;
    return `\u2022 ${mark} *${a.severity}* ${what}: ${formatRate(a.value)} (threshold ${formatRate(a.threshold)})`;
  });
  return listSection("*Alerts firing*", lines);
}

function severityRank(alert: FiringAlert): number {
  return alert.severity === "critical" ? 0 : 1;
}

/** Projects that could not be fetched, each with its reason; at most `max` listed here. */
export function unavailableSection(
  projects: readonly UnavailableProject[],
  max: number,
): SlackBlock | null {
  const title = "*Unavailable* (left out of the totals)";
  const lines = projects.slice(0, max).map(unavailableLine);
  return listSection(title, lines, { total: projects.length, where: " in the thread" });
}

/**
 * A mrkdwn section of a title and lines, cut to fit Slack's 3000 characters with a closing
 * "… and N more" (of `total`, which may count lines left out before). Null when there are no lines.
 */
function listSection(
  title: string,
  lines: readonly string[],
  { total = lines.length, where = "" }: { total?: number; where?: string } = {},
): SlackBlock | null {
  if (lines.length === 0) return null;
  let text = title;
  let used = 0;
  for (const line of lines) {
    if (text.length + 1 + line.length > LIST_CHARS) break;
    text += `\n${line}`;
    used += 1;
  }
  if (used < total) text += `\n\u2026 and ${total - used} more${where}`;
  return { type: "section", text: { type: "mrkdwn", text } };
}

/** A context block of small print lines (already mrkdwn); null when there are none. */
export function contextBlock(lines: readonly string[]): SlackBlock | null {
  const elements = lines
    .filter((l) => l !== "")
    .slice(0, SLACK_LIMITS.contextElements)
    .map((text) => ({ type: "mrkdwn", text: truncateText(text, SLACK_LIMITS.sectionChars) }));
  return elements.length > 0 ? { type: "context", elements } : null;
}
