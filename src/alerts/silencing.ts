import { isFiring } from "./evaluate-alert.js";
import type { AlertRule, Evaluation, ScopeResult, Transition } from "./types.js";

// What of an evaluation is posted, given the silences and acknowledgements that stand (issue
// 24). The evaluation itself is recorded whole: a silenced scope's states still move, so when
// its silence ends the alert knows where it stands. Pure: "now" is handed in.

/** A silence as this needs it (the store's Silence fits). */
export interface SilenceSpan {
  /** The alert's scope it silences: a project id, or `team`. */
  scope: string;
  startsAt: Date;
  endsAt: Date;
  /** Set when it was ended before `endsAt`. */
  endedAt: Date | null;
  /** Who ended it, when it was ended early (absent: not known). */
  endedBy?: string | null;
}

export interface SilencingInput {
  evaluation: Evaluation;
  rule: Pick<AlertRule, "warnAt" | "criticalAt">;
  /** The alert's silences (those of other alerts left out), whether they hold now or not. */
  silences: readonly SilenceSpan[];
  /** The fires (their thread keys) acknowledged and not cleared since. */
  acknowledged: ReadonlySet<string>;
  /** The evaluation's instant, ISO. */
  now: string;
}

export interface Silenced {
  /** To record: every transition, plus a reminder for each silence that ended on a firing scope. */
  recorded: Evaluation;
  /** To post: the same, less what a silence or an acknowledgement holds back. */
  posted: Evaluation;
  /** What was held back, for the log. */
  held: Transition[];
}

/** Holds back silenced scopes' transitions and acknowledged fires' reminders; posts a scope once when its silence ends. */
export function applySilences(input: SilencingInput): Silenced {
  const { evaluation, now } = input;
  const at = new Date(now);
  const holds = (scope: string) =>
    input.silences.some((s) => s.scope === scope && silenceHolds(s, at));
  const heldBack = (t: Transition) =>
    holds(t.scope) ||
    (t.kind === "reminder" && t.threadKey !== null && input.acknowledged.has(t.threadKey));
  const held = evaluation.transitions.filter(heldBack);
  const kept = evaluation.transitions.filter((t) => !heldBack(t));
  const announced = new Set(kept.map((t) => t.scope));

  const released: Transition[] = [];
  const results = evaluation.results.map((r): ScopeResult => {
    if (!isFiring(r.state.state) || announced.has(r.scope) || holds(r.scope)) return r;
    const ended = silenceEndedSince(input.silences, r.scope, r.state.lastNotifiedAt, at.getTime());
    if (!ended) return r;
    const endedBy = ended.endedAt !== null ? (ended.endedBy ?? null) : null;
    released.push({ ...currentState(r, input.rule), afterSilence: { endedBy } });
    return { ...r, state: { ...r.state, lastNotifiedAt: now } };
  });
  const transitions = [...evaluation.transitions, ...released];
  const posted = [...kept, ...released];
  return {
    recorded: { ...evaluation, results, transitions },
    posted: {
      results,
      transitions: posted,
      mention: posted.some((t) => t.kind === "fired" || t.kind === "escalated"),
    },
    held,
  };
}

/** The silence of the scope that ended (or ran out) by `at`, after the scope's last message. */
function silenceEndedSince(
  silences: readonly SilenceSpan[],
  scope: string,
  lastNotifiedAt: string | null,
  at: number,
): SilenceSpan | undefined {
  const last = lastNotifiedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(lastNotifiedAt);
  const end = (s: SilenceSpan) =>
    Math.min(s.endsAt.getTime(), s.endedAt?.getTime() ?? Number.POSITIVE_INFINITY);
  const ended = silences.filter(
    (s) => s.scope === scope && end(s) <= at && end(s) > last && end(s) > s.startsAt.getTime(),
  );
  // The one that ended last is the one the reminder speaks of.
  return ended.reduce<SilenceSpan | undefined>(
    (a, b) => (a && end(a) >= end(b) ? a : b),
    undefined,
  );
}

/** The scope as it stands, as a reminder in its fire's thread. */
function currentState(r: ScopeResult, rule: SilencingInput["rule"]): Transition {
  return {
    kind: "reminder",
    scope: r.scope,
    name: r.name,
    from: r.state.state,
    to: r.state.state,
    sample: r.sample,
    threshold: r.state.state === "critical" ? rule.criticalAt : rule.warnAt,
    firedAt: r.state.firedAt,
    threadKey: r.state.threadKey,
    ...(r.missing ? { missing: r.missing } : {}),
  };
}

/** A silence as a fire's first message shows it (the store's Silence fits). */
export interface SnoozeSpan extends SilenceSpan {
  id: number;
  author: string;
}

/** A fire's standing snooze: who asked last, until when (ISO), and every silence it holds by. */
export interface StandingSnooze {
  by: string;
  until: string;
  silenceIds: number[];
}

/**
 * The snooze that holds now on each firing fire, by its thread key: the silences holding on its
 * scopes, shown as the one that ends last.
 */
export function standingSnoozes(
  results: readonly ScopeResult[],
  silences: readonly SnoozeSpan[],
  now: string,
): Record<string, StandingSnooze> {
  const scopesOf = new Map<string, string[]>();
  for (const r of results) {
    const fire = r.state.threadKey;
    if (fire === null || !isFiring(r.state.state)) continue;
    scopesOf.set(fire, [...(scopesOf.get(fire) ?? []), r.scope]);
  }
  const byFire: Record<string, StandingSnooze> = {};
  for (const [fire, scopes] of scopesOf) {
    const snooze = snoozeOf(silences, scopes, now);
    if (snooze) byFire[fire] = snooze;
  }
  return byFire;
}

/** The snooze that holds now on any of `scopes`: the silence that ends last, and every holding one's id. */
export function snoozeOf(
  silences: readonly SnoozeSpan[],
  scopes: readonly string[],
  now: string,
): StandingSnooze | null {
  const at = new Date(now);
  const holding = silences.filter((s) => scopes.includes(s.scope) && silenceHolds(s, at));
  const last = holding.reduce<SnoozeSpan | null>(
    (a, b) => (a === null || b.endsAt.getTime() > a.endsAt.getTime() ? b : a),
    null,
  );
  return last
    ? { by: last.author, until: last.endsAt.toISOString(), silenceIds: holding.map((s) => s.id) }
    : null;
}

/** Whether a silence holds at `at`: started, not yet over, not ended early. */
export function silenceHolds(
  silence: { startsAt: Date; endsAt: Date; endedAt: Date | null },
  at: Date,
): boolean {
  const t = at.getTime();
  return (
    silence.endedAt === null && silence.startsAt.getTime() <= t && t < silence.endsAt.getTime()
  );
}
