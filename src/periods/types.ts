/** A span of whole local days in a team's zone; both ends inclusive, ISO dates. */
export interface Period {
  start: string;
  end: string;
}

export const PERIOD_KINDS = [
  "previous_day",
  "since_previous_run",
  "previous_week",
  "previous_month",
  "previous_quarter",
  "last_7_days",
  "last_28_days",
] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

export const COMPARE_TO = [
  "previous_period",
  "same_period_last_week",
  "same_period_last_year",
  "median_of_4_weeks",
] as const;
export type CompareTo = (typeof COMPARE_TO)[number];

/** ISO weekday: 1 is Monday, 7 is Sunday (as luxon counts). */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** The period a fire covers and the one it is compared with. */
export interface PeriodPair {
  kind: PeriodKind;
  compareTo: CompareTo;
  current: Period;
  /** With a `baseline`, the span from its oldest start to its newest end. */
  prior: Period;
  /**
   * `median_of_4_weeks`: the current span moved back 1, 2, 3 and 4 weeks, newest first; the
   * prior figures are their median. Absent for every other comparison.
   */
  baseline?: readonly Period[];
}
