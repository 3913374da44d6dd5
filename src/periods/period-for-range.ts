import { UsageError } from "../errors.js";
import { addDays, isIsoDate, periodDays } from "./calendar-date.js";
import type { Period } from "./types.js";

/** The period from `start` to `end` (ISO dates, both inclusive), or a usage error saying what to fix. */
export function periodForRange(start: string, end: string): Period {
  for (const [flag, value] of [
    ["--from", start],
    ["--to", end],
  ] as const) {
    if (!isIsoDate(value)) {
      throw new UsageError(
        `${flag} "${value}" is not a date — write it as YYYY-MM-DD, e.g. 2026-11-02`,
      );
    }
  }
  if (start > end) {
    throw new UsageError(
      `--from ${start} is after --to ${end} — the range must start on or before its end`,
    );
  }
  return { start, end };
}

/** The span of equal length that ends the day before `period` starts. */
export function priorOfRange(period: Period): Period {
  return {
    start: addDays(period.start, -periodDays(period)),
    end: addDays(period.start, -1),
  };
}
