import type { AlertConfig, Team } from "../../config/types.js";
import { periodsForFire } from "../../periods/periods-for-fire.js";
import type { Period } from "../../periods/types.js";
import { slotKey } from "../../state/slot-key.js";

// Which window an alert's fire evaluates and the slot that names it: all that the daemon's
// schedule needs of an alert, without loading its evaluation, renderers and deliveries.

export interface AlertJob {
  team: Team;
  alert: AlertConfig;
  /** The scheduled instant (a late run evaluates its slot's window). */
  fireAt: Date;
}

/** The window an alert fired at `fireAt` evaluates, and the slot key that names it. */
export function alertSlot(job: AlertJob): { key: string; window: Period } {
  const { team, alert, fireAt } = job;
  const periods = periodsForFire({
    fireAt,
    timezone: team.timezone,
    kind: alert.window,
    compareTo: "previous_period",
    weekStartsOn: team.weekStartsOn,
  });
  return { key: slotKey(team.name, "alert", alert.name, periods.current), window: periods.current };
}
