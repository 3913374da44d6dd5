/** A span of whole local days in a team's zone; both ends inclusive, ISO dates. */
export interface Period {
  start: string;
  end: string;
}

export const PERIOD_KINDS = [
  "previous_day",
  "previous_week",
  "previous_month",
  "last_7_days",
  "last_28_days",
] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

export const COMPARE_TO = ["previous_period", "same_period_last_week"] as const;
export type CompareTo = (typeof COMPARE_TO)[number];

/** The period a fire covers and the one it is compared with. */
export interface PeriodPair {
  kind: PeriodKind;
  compareTo: CompareTo;
  current: Period;
  prior: Period;
}
