import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import {
  applySilences,
  type SilenceSpan,
  type SnoozeSpan,
  snoozeOf,
} from "../../src/alerts/silencing.js";
import type { AlertRule, ScopeState, ScopeWindow } from "../../src/alerts/types.js";
import { counts, rule } from "./alert-builders.js";

// Silences and acknowledgements (issue 24) against a day-by-day sequence of one scope: what is
// recorded moves as always; what is posted leaves out what a silence or an acknowledgement holds,
// and a silence that ends on a scope still firing posts its state once.

const DAY = 86_400_000;
const day = (i: number) => new Date(Date.UTC(2026, 10, 1) + i * DAY);

interface Step {
  flaky: number;
  silences?: SilenceSpan[];
  acknowledged?: string[];
}

function run(r: AlertRule, steps: Step[]) {
  let states = new Map<string, ScopeState>();
  return steps.map((step, i) => {
    const current = counts(step.flaky);
    const window: ScopeWindow = {
      scope: "p1",
      name: "Web",
      current,
      prior: null,
      daily: [current],
    };
    const evaluation = evaluateAlert({
      rule: r,
      windows: [window],
      states,
      now: day(i).toISOString(),
      key: `t.alert.a.${i}`,
    });
    const out = applySilences({
      evaluation,
      rule: r,
      silences: step.silences ?? [],
      acknowledged: new Set(step.acknowledged ?? []),
      now: day(i).toISOString(),
    });
    const [result] = out.recorded.results;
    if (!result) throw new Error("no result");
    states = new Map([[result.scope, result.state]]);
    return {
      recorded: out.recorded.transitions.map((t) => t.kind).join(",") || "-",
      posted: out.posted.transitions.map((t) => t.kind).join(",") || "-",
      mention: out.posted.mention,
      afterSilence: out.posted.transitions.find((t) => t.afterSilence)?.afterSilence ?? null,
    };
  });
}

/** A silence of p1 from day `from` to day `to` (exclusive), ended early on `endedOn` if given. */
const silence = (from: number, to: number, endedOn?: number): SilenceSpan => ({
  scope: "p1",
  startsAt: day(from),
  endsAt: day(to),
  endedAt: endedOn === undefined ? null : day(endedOn),
});

describe("applySilences", () => {
  it("records a silenced scope's transitions, posts none, and posts its state once when the silence ends", () => {
    const s = silence(1, 3);
    const steps = run(rule(), [
      { flaky: 4 }, // fires, posted
      { flaky: 6, silences: [s] }, // escalates under the silence: recorded, not posted
      { flaky: 6.5, silences: [s] },
      { flaky: 6.2, silences: [s] }, // the silence ran out: the state, posted once
      { flaky: 6.1, silences: [s] }, // and only once
    ]);
    expect(steps.map((s) => s.recorded)).toEqual(["fired", "escalated", "-", "reminder", "-"]);
    expect(steps.map((s) => s.posted)).toEqual(["fired", "-", "-", "reminder", "-"]);
    expect(steps.map((s) => s.mention)).toEqual([true, false, false, false, false]);
    // The reminder says why it comes now: the snooze ran out.
    expect(steps[3]?.afterSilence).toEqual({ endedBy: null });
  });

  it("posts nothing when the silence ends on a scope that resolved meanwhile", () => {
    const s = silence(1, 3);
    const steps = run(rule(), [
      { flaky: 4 },
      { flaky: 1, silences: [s] }, // resolved under the silence
      { flaky: 1, silences: [s] },
      { flaky: 1, silences: [s] },
    ]);
    expect(steps.map((s) => s.recorded)).toEqual(["fired", "resolved", "-", "-"]);
    expect(steps.map((s) => s.posted)).toEqual(["fired", "-", "-", "-"]);
  });

  it("a silence ended early from Slack or the CLI posts the state at the next evaluation, saying who ended it", () => {
    const s = { ...silence(1, 30, 2), endedBy: "cli:ana" };
    const steps = run(rule(), [
      { flaky: 4 },
      { flaky: 4, silences: [s] },
      { flaky: 4, silences: [s] },
    ]);
    expect(steps.map((s) => s.posted)).toEqual(["fired", "-", "reminder"]);
    expect(steps[2]?.afterSilence).toEqual({ endedBy: "cli:ana" });
  });

  it("a silence of another scope, or one not yet started, holds nothing back", () => {
    const other = { ...silence(0, 9), scope: "p2" };
    const later = silence(5, 9);
    const steps = run(rule(), [
      { flaky: 4, silences: [other, later] },
      { flaky: 6, silences: [other, later] },
    ]);
    expect(steps.map((s) => s.posted)).toEqual(["fired", "escalated"]);
  });

  it("holds back an acknowledged fire's reminders, not its escalation", () => {
    const r = rule({ repeatEveryMs: DAY });
    const fire = "t.alert.a.0";
    const steps = run(r, [
      { flaky: 4 },
      { flaky: 4, acknowledged: [fire] }, // a reminder was due: held
      { flaky: 6, acknowledged: [fire] }, // an escalation is news
      { flaky: 6 }, // the escalation cleared the acknowledgement: reminders again
    ]);
    expect(steps.map((s) => s.recorded)).toEqual(["fired", "reminder", "escalated", "reminder"]);
    expect(steps.map((s) => s.posted)).toEqual(["fired", "-", "escalated", "reminder"]);
  });
});

describe("the snooze a fire's first message shows", () => {
  const span = (id: number, scope: string, to: number, extra: Partial<SnoozeSpan> = {}) => ({
    id,
    scope,
    author: `U${id}`,
    startsAt: day(0),
    endsAt: day(to),
    endedAt: null,
    ...extra,
  });
  const now = day(1).toISOString();

  it("is the holding silence of its scopes that ends last, ending every holding one", () => {
    const silences = [
      span(1, "p1", 2),
      span(2, "p2", 5),
      span(3, "p1", 9, { endedAt: day(1) }), // ended early: no longer holds
      span(4, "p1", 1), // ran out
      span(5, "p9", 9), // another fire's scope
    ];
    expect(snoozeOf(silences, ["p1", "p2"], now)).toEqual({
      by: "U2",
      until: day(5).toISOString(),
      silenceIds: [1, 2],
    });
  });

  it("is none when nothing holds on its scopes", () => {
    expect(snoozeOf([span(4, "p1", 1), span(5, "p9", 9)], ["p1"], now)).toBeNull();
  });
});
