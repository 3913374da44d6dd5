import { isRate, metricName } from "../../alerts/alert-metrics.js";
import type { AlertMetric, Evaluation } from "../../alerts/types.js";
import { fixed, formatCount, formatPeriod } from "../format.js";
import { printableText } from "../printable-text.js";
import { firstCheckWords, formatMetric, STATE_MARK } from "./alert-view.js";
import { fromNormalText } from "./normal-words.js";

// An evaluation as terminal text (for `alerts` and `preview --alert`): every scope with its
// state and value, then what would be sent. Names and the key are made printable first.

/** Lines: a header, a row per scope, and the transitions (or "no change"). */
export function renderTerminalAlert(
  alert: { name: string; metric: AlertMetric },
  outcome: { key: string; window: { start: string; end: string }; evaluation: Evaluation },
): string[] {
  const input = {
    key: printableText(outcome.key),
    alert: alert.name,
    metric: alert.metric,
    window: outcome.window,
  };
  const { evaluation } = outcome;
  const lines = [
    `${input.key} · ${metricName(input.metric)} · window ${formatPeriod(input.window)}`,
  ];
  const nameOf = (name: string) => printableText(name);
  const width = Math.max(8, ...evaluation.results.map((r) => nameOf(r.name).length));
  for (const r of evaluation.results) {
    const i = r.sample.interval;
    // A project the API does not know is "not found", not a quiet no_data.
    if (r.missing) {
      lines.push(
        `  ${STATE_MARK[r.state.state]} ${nameOf(r.name).padEnd(width)}  ${printableText(r.missing)}`,
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
    lines.push(
      `  ${STATE_MARK[r.state.state]} ${nameOf(r.name).padEnd(width)}  ${r.state.state.padEnd(8)}  ${value}${size}${from}`,
    );
  }
  if (evaluation.transitions.length === 0) lines.push("  no change: nothing to send");
  for (const t of evaluation.transitions) {
    const what =
      t.from === "new" ? firstCheckWords(t.to, input.window) : `${t.kind} (${t.from} → ${t.to})`;
    lines.push(`  → ${nameOf(t.name)}: ${what}`);
  }
  return lines;
}
