import type { AlertState } from "../state/ledger.js";
import type { ScopeState } from "./types.js";

// Between the ledger's rows (Dates) and the engine's states (ISO strings, plain data).

/** A ledger row as the engine reads it (ISO instants). */
export function toScopeState(s: AlertState): ScopeState {
  return {
    scope: s.scope,
    state: s.state,
    since: s.since.toISOString(),
    breaches: s.breaches,
    lastValue: s.lastValue,
    lastNotifiedAt: s.lastNotifiedAt?.toISOString() ?? null,
    firedAt: s.firedAt?.toISOString() ?? null,
    threadKey: s.threadKey,
  };
}

/** The engine's state as the ledger records it. */
export function fromScopeState(
  team: string,
  alert: string,
  s: ScopeState,
): Omit<AlertState, "updatedAt"> {
  const date = (iso: string | null) => (iso === null ? null : new Date(iso));
  return {
    team,
    alert,
    scope: s.scope,
    state: s.state,
    since: new Date(s.since),
    breaches: s.breaches,
    lastValue: s.lastValue,
    lastNotifiedAt: date(s.lastNotifiedAt),
    firedAt: date(s.firedAt),
    threadKey: s.threadKey,
  };
}
