import { describe, expect, it } from "vitest";
import { deltaCue } from "../../../../src/destinations/slack/messages/slack-delta-cue.js";
import { deltaView, toneOf } from "../../../../src/render/delta-view.js";
import type {
  AmountDelta,
  AmountFigure,
  RateDelta,
  RateFigure,
} from "../../../../src/report/types.js";

const RED = "\u{1F534}";
const GREEN = "\u{1F7E2}";

const rate = (pp: number, significant = true): RateDelta => ({
  kind: "change",
  pp,
  significant,
  pValue: significant ? 0.001 : 0.4,
  large: Math.abs(pp) >= 0.5,
});
const amount = (diff: number, pct: number | null, significant = true): AmountDelta => ({
  kind: "change",
  diff,
  pct,
  significant,
  large: pct === null ? diff !== 0 : Math.abs(pct) >= 0.1,
});

describe("deltaCue", () => {
  const cases: [string, RateFigure | AmountFigure, RateDelta | AmountDelta, string][] = [
    ["a rising flaky rate is bad", "flakyRate", rate(0.8), `${RED} \u2191 +0.8 pp`],
    ["a falling flaky rate is good", "flakyRate", rate(-1.25), `${GREEN} \u2193 \u22121.3 pp`],
    ["a rising run pass rate is good", "runPassRate", rate(1.2), `${GREEN} \u2191 +1.2 pp`],
    ["a falling test pass rate is bad", "testPassRate", rate(-2), `${RED} \u2193 \u22122.0 pp`],
    ["noise is ≈ and uncoloured", "flakyRate", rate(0.3, false), "\u2248 +0.3 pp"],
    [
      "noise on a pass rate is uncoloured too",
      "runPassRate",
      rate(-0.4, false),
      "\u2248 \u22120.4 pp",
    ],
    [
      "a longer mean duration is bad",
      "meanRunDurationMs",
      amount(90_000, 0.15),
      `${RED} \u2191 +15%`,
    ],
    [
      "a duration 5% longer is under 10%: ≈",
      "meanRunDurationMs",
      amount(30_000, 0.05),
      "\u2248 +5%",
    ],
    ["fewer failed tests is good", "testsFailed", amount(-30, -0.18), `${GREEN} \u2193 \u221218%`],
    [
      "a count Poisson noise explains is ≈, however large in percent",
      "testsFailed",
      amount(-3, -0.15, false),
      "\u2248 \u221215%",
    ],
    ["more runs is neither good nor bad", "runs", amount(40, 0.12), "\u2191 +12%"],
    ["a change that rounds to nothing carries no cue", "testsFailed", amount(1, 0.001), "\u00b10%"],
    [
      "a count up from zero says what it was, never a bare +5 beside percentages",
      "testsTimedOut",
      amount(5, null),
      `${RED} (was 0)`,
    ],
    // Seen in the preview: "Timed-out tests 0 ≈ ±0 (noise)"; no change at all is flat.
    [
      "a count from zero to zero is flat, not noise",
      "testsTimedOut",
      amount(0, null, false),
      "\u00b10",
    ],
    ["a figure with no prior data is new", "flakyRate", { kind: "new" }, "new"],
    ["an unavailable prior shows no delta", "flakyRate", { kind: "unavailable", reason: "x" }, ""],
    ["no current data shows no delta", "runs", { kind: "none" }, ""],
  ];
  it.each(cases)("%s", (_name, figure, delta, expected) => {
    expect(deltaCue(figure, delta)).toBe(expected);
  });
});

describe("deltaView, shared by Slack, the email, the terminal and the workbook", () => {
  it.each([
    [
      "a duration 0.14% shorter: shown as ±0%, no news",
      "meanRunDurationMs",
      amount(-600, -0.0014),
      "neutral",
    ],
    [
      "a duration 1% shorter: under 10%, no news",
      "meanRunDurationMs",
      amount(-4_200, -0.01),
      "neutral",
    ],
    ["a duration 12% shorter: good", "meanRunDurationMs", amount(-50_000, -0.12), "good"],
    [
      "a significant flaky rate change of 0.04 pp: shown as ±0.0 pp",
      "flakyRate",
      rate(0.04),
      "neutral",
    ],
    [
      "a significant flaky rate rise of 0.2 pp: under min_change_pp",
      "flakyRate",
      rate(0.2),
      "neutral",
    ],
    ["a significant flaky rate rise of 0.6 pp: bad", "flakyRate", rate(0.6), "bad"],
    ["a flaky rate rise of 3 pp the z-test calls chance", "flakyRate", rate(3, false), "neutral"],
  ] as const)("%s", (_, figure, delta, tone) => {
    expect(toneOf(deltaView(figure, delta))).toBe(tone);
  });
});
