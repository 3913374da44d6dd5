import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { ScopeState, ScopeWindow } from "../../src/alerts/types.js";
import type { AlertMessageInput } from "../../src/render/alert/alert-view.js";
import { rule } from "../alerts/alert-builders.js";

export const ALERT_NOW = "2026-11-19T08:00:00.000Z";

/**
 * What an alert renderer is given: one evaluation, at ALERT_NOW, of a 95%-confidence flaky-rate
 * rule (warn 3%, critical 5%, clear 2.5%) over `windows`, for team "t" ("Checkout").
 */
export function alertInput(
  windows: ScopeWindow[],
  options: { states?: Map<string, ScopeState>; key?: string } = {},
): AlertMessageInput {
  const key = options.key ?? "t.alert.flaky.2026-11-18";
  const evaluation = evaluateAlert({
    rule: rule({ confidence: 0.95 }),
    windows,
    states: options.states ?? new Map(),
    now: ALERT_NOW,
    key,
  });
  return {
    key,
    team: { name: "t", title: "Checkout", timezone: "Europe/Berlin" },
    alert: {
      name: "flaky",
      metric: "flaky_rate",
      warnAt: 3,
      criticalAt: 5,
      clearAt: 2.5,
      confidence: 0.95,
    },
    period: { start: "2026-11-18", end: "2026-11-18" },
    transitions: evaluation.transitions,
    mention: null,
    mentionDue: evaluation.mention,
  };
}
