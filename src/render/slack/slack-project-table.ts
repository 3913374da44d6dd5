import type { SlackBlock } from "../../messages.js";
import type { AvailableProject } from "../../report/types.js";
import { flakyScale, formatCount, formatRate, sparkline } from "../format.js";
import { deltaCue } from "./slack-delta-cue.js";
import { truncateText } from "./slack-limits.js";

const EMPTY = "\u2014";
const NAME_CHARS = 40;

/** Rows a table can hold besides its header row (Slack: at most 100 rows). */
export const TABLE_PROJECT_ROWS = 99;

/**
 * One row per project as a Slack `table` block: name, runs, run pass rate and flaky rate with
 * their deltas, and the flaky rate by day when the period has more than one day. Cells are
 * `raw_text`, which Slack shows as typed: names are not escaped here (escaping would show
 * `&lt;`), and nothing in a raw_text cell can ping. Empty cells are refused, so "—" stands in.
 */
export function projectTable(projects: readonly AvailableProject[]): SlackBlock {
  const withTrend = projects.some((p) => p.daily.length > 1);
  const scale = flakyScale(projects);
  const head = ["Project", "Runs", "Run pass", "\u0394", "Flaky", "\u0394"];
  if (withTrend) head.push("Flaky by day");
  const rows = projects.map((p) => {
    const cells = [
      truncateText(p.name || p.projectId, NAME_CHARS),
      formatCount(p.current.runs),
      formatRate(p.current.runPassRate),
      deltaCue("runPassRate", p.deltas.runPassRate),
      formatRate(p.current.flakyRate),
      deltaCue("flakyRate", p.deltas.flakyRate),
    ];
    if (withTrend)
      cells.push(
        sparkline(
          p.daily.map((d) => d.figures.flakyRate),
          scale,
        ),
      );
    return cells;
  });
  const align = head.map((_, i) => (i === 0 ? { is_wrapped: true } : { align: "right" }));
  return { type: "table", column_settings: align, rows: [head, ...rows].map((r) => r.map(cell)) };
}

function cell(text: string): { type: "raw_text"; text: string } {
  return { type: "raw_text", text: text.trim() === "" ? EMPTY : text };
}
