import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import { renderTerminalAlert } from "../../src/render/alert/terminal-alert.js";
import { counts, rule } from "../alerts/alert-builders.js";
import { showInTerminal } from "./xterm-screen.js";

// `alerts`, `preview --alert` and the demo print an evaluation at the terminal's width: a row
// against its normal runs to ~125 columns, so the comparison goes under the row, indented.

const WINDOW = { start: "2026-11-19", end: "2026-11-19" };
const relative = rule({
  name: "flaky-regression",
  warnAt: 1,
  criticalAt: 3,
  clearAt: 0.5,
  confidence: 0.95,
  against: { baseline: "median_of_4_weeks", by: "points" },
});

function rendered(width: number): string[] {
  const evaluation = evaluateAlert({
    rule: relative,
    windows: [
      {
        scope: "p1",
        name: "Data pipeline",
        prior: null,
        daily: [],
        current: counts(2.4),
        baseline: [counts(0.8), counts(0.7), counts(0.9), counts(0.8)],
      },
    ],
    states: new Map(),
    now: "2026-11-20T08:00:00.000Z",
    key: "data.alert.flaky-regression.2026-11-19",
  });
  return renderTerminalAlert(
    { name: "flaky-regression", metric: "flaky_rate" },
    { key: "data.alert.flaky-regression.2026-11-19", window: WINDOW, evaluation },
    width,
  );
}

describe("an alert's evaluation in the terminal", () => {
  it("puts the comparison with the normal under its row at 80 columns, and nothing wraps", async () => {
    const lines = rendered(80);
    const row = lines.findIndex((l) => l.includes("Data pipeline  "));
    expect(lines[row]).toMatch(/^ {2}\S+ Data pipeline +\w+ +2\.4% \(.*\) +[\d,]+ results$/);
    expect(lines[row + 1]).toBe(
      "     · 1.6 pp above its normal 0.8% (median of the last 4 Thursdays)",
    );
    const { wrapped } = await showInTerminal(`${lines.join("\n")}\n`, 80);
    expect(wrapped).toEqual([]);
  });
});
