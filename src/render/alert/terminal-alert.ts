import { isRate, metricName } from "../../alerts/alert-metrics.js";
import type { AlertMetric, Evaluation } from "../../alerts/types.js";
import { fixed, formatCount, formatPeriod } from "../format.js";
import { printableText } from "../printable-text.js";
import { fitLine, visibleLength, wrap } from "../terminal/terminal-style.js";
import { firstCheckWords, formatMetric, STATE_MARK } from "./alert-view.js";
import { fromNormalText } from "./normal-words.js";

// An evaluation as terminal text (for `alerts` and `preview --alert`): every scope with its
// state and value, then what would be sent. Names and the key are made printable first.

// Under a scope's name ("  🟢 " takes five columns): where a row with its normal does not fit,
// the comparison with the normal goes on the next line, from here.
const UNDER_NAME = " ".repeat(5);

/**
 * Lines, each fitted to `width` columns: a header, a row per scope, and the transitions (or
 * "no change").
 */
export function renderTerminalAlert(
  alert: { name: string; metric: AlertMetric },
  outcome: { key: string; window: { start: string; end: string }; evaluation: Evaluation },
  width = 80,
): string[] {
  const input = {
    key: printableText(outcome.key),
    alert: alert.name,
    metric: alert.metric,
    window: outcome.window,
  };
  const { evaluation } = outcome;
  const lines = fitLine(
    `${input.key} · ${metricName(input.metric)} · window ${formatPeriod(input.window)}`,
    width,
  );
  const nameOf = (name: string) => printableText(name);
  const nameWidth = Math.max(8, ...evaluation.results.map((r) => nameOf(r.name).length));
  for (const r of evaluation.results) {
    const i = r.sample.interval;
    // A project the API does not know is "not found", not a quiet no_data.
    if (r.missing) {
      lines.push(
        ...fitLine(
          `  ${STATE_MARK[r.state.state]} ${nameOf(r.name).padEnd(nameWidth)}  ${printableText(r.missing)}`,
          width,
        ),
      );
      continue;
    }
    const value = `${formatMetric(input.metric, r.sample.value)}${i ? ` (${fixed(i.low, 1)}–${fixed(i.high, 1)}%)` : ""}`;
    const size = isRate(input.metric) ? `  ${formatCount(r.sample.size)} results` : "";
    // Against a normal, both numbers: " · 1.6 pp above its normal 0.8% (median of …)".
    const normal = r.sample.normal;
    const from =
      normal === undefined
        ? ""
        : normal === null || r.sample.value === null
          ? " · no normal"
          : ` · ${fromNormalText(input.metric, r.sample.value, normal, input.window)}`;
    const row = `  ${STATE_MARK[r.state.state]} ${nameOf(r.name).padEnd(nameWidth)}  ${r.state.state.padEnd(8)}  ${value}${size}`;
    if (visibleLength(`${row}${from}`) <= width) lines.push(`${row}${from}`);
    else
      lines.push(
        ...fitLine(row, width),
        ...wrap(from.trimStart(), width, UNDER_NAME, `${UNDER_NAME}  `),
      );
  }
  if (evaluation.transitions.length === 0) lines.push("  no change: nothing to send");
  for (const t of evaluation.transitions) {
    const what =
      t.from === "new" ? firstCheckWords(t.to, input.window) : `${t.kind} (${t.from} → ${t.to})`;
    lines.push(...fitLine(`  → ${nameOf(t.name)}: ${what}`, width));
  }
  return lines;
}
