import type { SlackBlock } from "../../../messages.js";
import { sparkline } from "../../../render/format.js";
import type { TableFigure } from "../../../render/table-figures.js";
import { truncateText } from "../../../render/truncate-text.js";
import type { AvailableProject, TeamTotal } from "../../../report/types.js";
import { plainName } from "./escape-mrkdwn.js";
import { deltaCue } from "./slack-delta-cue.js";

const EMPTY = "\u2014";
const NAME_CHARS = 40;

/** Project rows a table can hold besides its header and team rows (Slack: at most 100 rows). */
export const TABLE_PROJECT_ROWS = 98;

/**
 * One row per project as a Slack `table` block: name and the table's figures (those that are
 * news in this digest, at most four: `tableFigures`), each with its delta, and the flaky rate by day when the period has more than one day. Cells are
 * `raw_text`, which Slack shows as typed: names are not escaped here (escaping would show
 * `&lt;`), and nothing in a raw_text cell can ping; only a domain-like name is kept from linking. Empty cells are refused, so "—" stands in.
 * Each sparkline is on its own scale (a project at 0.5% shows its own shape, not a flat floor
 * under a 6% neighbour); the team's row on top gives the line to compare each one with.
 */
export function projectTable(
  projects: readonly AvailableProject[],
  team: TeamTotal | null,
  columns: readonly TableFigure[],
): SlackBlock {
  const withTrend = projects.some((p) => p.daily.length > 1);
  const head = ["Project", ...columns.flatMap((c) => [c.label, "\u0394"])];
  if (withTrend) head.push("Flaky by day");
  const teamRow = team ? [{ ...team, name: "Team", projectId: "team" }] : [];
  const rows = [...teamRow, ...projects].map((p) => {
    const cells = [
      plainName(truncateText(p.name || p.projectId, NAME_CHARS)),
      ...columns.flatMap((c) => [c.value(p.current), deltaCue(c.figure, p.deltas[c.figure])]),
    ];
    if (withTrend) cells.push(sparkline(p.daily.map((d) => d.figures.flakyRate)));
    return cells;
  });
  const align = head.map((_, i) => (i === 0 ? { is_wrapped: true } : { align: "right" }));
  return { type: "table", column_settings: align, rows: [head, ...rows].map((r) => r.map(cell)) };
}

function cell(text: string): { type: "raw_text"; text: string } {
  return { type: "raw_text", text: text.trim() === "" ? EMPTY : text };
}
