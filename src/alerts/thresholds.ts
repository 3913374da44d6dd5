import type { AlertRule, Normal } from "./types.js";

// The thresholds a scope is judged by: the rule's own when they are absolute, else its signed
// offsets laid on the scope's normal — `points` added in the metric's unit (pp for rates),
// `percent` as a share of the normal ("+20%" of a 10-minute mean is 12 minutes).

export interface Thresholds {
  warnAt: number;
  criticalAt: number;
  clearAt: number;
}

/** The absolute thresholds for a scope; null when they are relative and it has no normal. */
export function thresholdsFor(
  rule: Pick<AlertRule, "warnAt" | "criticalAt" | "clearAt" | "against">,
  normal: Normal | null | undefined,
): Thresholds | null {
  const { warnAt, criticalAt, clearAt, against } = rule;
  if (against === null) return { warnAt, criticalAt, clearAt };
  if (!normal) return null;
  const at = (offset: number) =>
    against.by === "points" ? normal.value + offset : normal.value * (1 + offset / 100);
  return { warnAt: at(warnAt), criticalAt: at(criticalAt), clearAt: at(clearAt) };
}
