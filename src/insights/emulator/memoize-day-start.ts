import { type DayStart, localMidnight } from "./aggregate-insights.js";

/**
 * `localMidnight` with a memory: zone arithmetic costs tens of microseconds a day, and
 * requests keep asking for the same days in the same zones. Bounded, so odd zones or dates
 * sent for hours cannot grow it without end.
 */
export function memoizeDayStart(limit = 20_000): DayStart {
  const known = new Map<string, string>();
  return (isoDate, zone) => {
    const key = `${zone}|${isoDate}`;
    let start = known.get(key);
    if (start === undefined) {
      if (known.size >= limit) known.clear();
      start = localMidnight(isoDate, zone);
      known.set(key, start);
    }
    return start;
  };
}
