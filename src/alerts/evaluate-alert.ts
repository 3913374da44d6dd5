import { sampleOf } from "./metric-sample.js";
import { withNormal } from "./normal.js";
import { thresholdsFor } from "./thresholds.js";
import type {
  AlertRule,
  AlertStateName,
  EarlierFire,
  Evaluation,
  Sample,
  ScopeResult,
  ScopeState,
  ScopeWindow,
  Transition,
  TransitionKind,
} from "./types.js";
import { type Verdict, verdictOf } from "./verdict.js";

// One evaluation of one alert: each scope's window and last state → its new state and the
// transitions worth a message. Pure: "now" and the evaluation's key are handed in.

export interface EvaluateInput {
  rule: AlertRule;
  windows: readonly ScopeWindow[];
  /** Last states by scope; a scope never evaluated has none. */
  states: ReadonlyMap<string, ScopeState>;
  /** The evaluation's instant (its scheduled fire), ISO. */
  now: string;
  /** The evaluation's key: a fire announced now is threaded under it later. */
  key: string;
  /** Each scope's fire that resolved within the last 7 days, if any: a new fire regressed. */
  resolvedRecently?: ReadonlyMap<string, EarlierFire>;
}

const ORDER: readonly TransitionKind[] = [
  "fired",
  "escalated",
  "de-escalated",
  "resolved",
  "reminder",
];

/** New states and transitions for every scope of the alert. */
export function evaluateAlert(input: EvaluateInput): Evaluation {
  const results: ScopeResult[] = [];
  const transitions: Transition[] = [];
  for (const window of input.windows) {
    const sample = withNormal(input.rule, window, sampleOf(input.rule, window));
    const verdict = verdictOf(input.rule, sample);
    const before = input.states.get(window.scope) ?? initialState(window.scope, input.now);
    const step = nextState(input, before, verdict, sample);
    const missing = window.missing ? { missing: window.missing } : {};
    results.push({
      scope: window.scope,
      name: window.name,
      sample,
      verdict,
      state: step.state,
      ...missing,
    });
    if (step.kind) {
      const earlier = input.resolvedRecently?.get(window.scope);
      transitions.push({
        kind: step.kind,
        scope: window.scope,
        name: window.name,
        // A scope with no recorded state is seen for the first time (not a move from no_data),
        // unless the ledger says it resolved lately: then it was calm, and this is a re-fire.
        from: input.states.has(window.scope) ? before.state : earlier ? "ok" : "new",
        to: step.state.state,
        sample,
        threshold: thresholdFor(input.rule, sample, step.state.state, step.kind),
        firedAt: before.firedAt,
        threadKey: step.kind === "fired" ? null : before.threadKey,
        ...missing,
        ...(step.kind === "fired" && earlier ? { regressed: earlier } : {}),
      });
    }
  }
  transitions.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  const mention = transitions.some((t) => t.kind === "fired" || t.kind === "escalated");
  return { results, transitions, mention };
}

/** A scope never evaluated has no verdict yet: no_data, which `keep` then keeps. */
function initialState(scope: string, now: string): ScopeState {
  return {
    scope,
    state: "no_data",
    since: now,
    breaches: 0,
    lastValue: null,
    lastNotifiedAt: null,
    firedAt: null,
    threadKey: null,
  };
}

/** Whether a scope in this state is firing (warn or critical). */
export const isFiring = (s: AlertStateName): boolean => s === "warn" || s === "critical";

/** The state machine of one scope: ok ⇄ pending → warn ⇄ critical → ok, and no_data. */
function nextState(
  input: EvaluateInput,
  before: ScopeState,
  measured: Verdict,
  sample: Sample,
): { state: ScopeState; kind: TransitionKind | null } {
  const { rule, now, key } = input;
  const firing = isFiring(before.state);
  const lastValue = sample.value ?? before.lastValue;
  const move = (
    state: AlertStateName,
    kind: TransitionKind | null,
    extra: Partial<ScopeState> = {},
  ) => ({
    state: {
      ...before,
      state,
      since: state === before.state ? before.since : now,
      lastValue,
      ...(kind ? { lastNotifiedAt: now } : {}),
      ...extra,
    },
    kind,
  });

  let verdict = measured;
  if (verdict === "no_data") {
    if (rule.onNoData === "keep") return move(before.state, null);
    if (rule.onNoData === "resolve") {
      return firing
        ? move("no_data", "resolved", { breaches: 0, firedAt: null, threadKey: null })
        : move("no_data", null, { breaches: 0 });
    }
    // on_no_data: fire — missing data is itself the alarm, at warn; a critical stays critical.
    verdict = before.state === "critical" ? "critical" : "warn";
  }

  if (firing) {
    if (verdict === "ok")
      return move("ok", "resolved", { breaches: 0, firedAt: null, threadKey: null });
    if (verdict === "critical" && before.state === "warn") return move("critical", "escalated");
    // Below critical_at but not yet clear: a critical eases to warn; a warn rides the band.
    if (verdict !== "critical" && before.state === "critical") return move("warn", "de-escalated");
    return reminderDue(rule, before, now)
      ? move(before.state, "reminder")
      : move(before.state, null);
  }

  if (verdict === "warn" || verdict === "critical") {
    const breaches = before.breaches + 1;
    if (breaches < rule.forEvaluations) return move("pending", null, { breaches });
    return move(verdict, "fired", { breaches, firedAt: now, threadKey: key });
  }
  return move("ok", null, { breaches: 0 });
}

function reminderDue(rule: AlertRule, before: ScopeState, now: string): boolean {
  if (rule.repeatEveryMs === null || before.lastNotifiedAt === null) return false;
  return Date.parse(now) - Date.parse(before.lastNotifiedAt) >= rule.repeatEveryMs;
}

/**
 * The threshold a transition is about, as an absolute value: the one crossed, or clear_at for
 * a resolution (a relative rule's offset as written when the scope has no normal).
 */
function thresholdFor(
  rule: AlertRule,
  sample: Sample,
  to: AlertStateName,
  kind: TransitionKind,
): number {
  const t = thresholdsFor(rule, sample.normal) ?? rule;
  if (kind === "resolved") return t.clearAt;
  return to === "critical" ? t.criticalAt : t.warnAt;
}
