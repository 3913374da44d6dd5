import { IANAZone } from "luxon";
import { UnknownTimezoneError } from "../errors.js";

// Conversions between instants and a zone's wall clock. A wall-clock time is carried as
// "milliseconds as if the local date and time were UTC", which lets cron iteration run in
// plain UTC (no DST) and leaves every DST decision to `instantOfWallClock`.

const MINUTE_MS = 60_000;
// Offsets are sampled this far either side, so any gap or overlap (at most a few hours) is
// seen, while two transitions never fall in one window in real zones.
const SAMPLE_MS = 26 * 60 * MINUTE_MS;

/** The IANA zone named `name`; throws UnknownTimezoneError for a name the runtime does not know. */
export function zoneNamed(name: string): IANAZone {
  const zone = IANAZone.create(name);
  if (!zone.isValid) {
    throw new UnknownTimezoneError(
      `unknown time zone "${name}" — use an IANA zone name such as Europe/Berlin or America/New_York`,
      { timezone: name },
    );
  }
  return zone;
}

/** The wall-clock reading (as UTC-shaped ms) of `instantMs` in `zone`. */
export function wallClockOf(instantMs: number, zone: IANAZone): number {
  return instantMs + zone.offset(instantMs) * MINUTE_MS;
}

/**
 * The first instant at which the zone's clock reads `wallMs` or later. So a time in a
 * repeated (fall-back) hour maps to its first occurrence, and a time inside a spring-forward
 * gap maps to the end of the gap (the first valid minute after it).
 */
export function instantOfWallClock(wallMs: number, zone: IANAZone): number {
  const guess = wallMs - zone.offset(wallMs) * MINUTE_MS;
  const offsets = new Set([
    zone.offset(guess - SAMPLE_MS),
    zone.offset(guess),
    zone.offset(guess + SAMPLE_MS),
  ]);
  let earliest = Number.POSITIVE_INFINITY;
  for (const offset of offsets) {
    const instant = wallMs - offset * MINUTE_MS;
    if (zone.offset(instant) === offset && instant < earliest) earliest = instant;
  }
  if (earliest !== Number.POSITIVE_INFINITY) return earliest;
  return endOfGap(wallMs, zone, Math.min(...offsets), Math.max(...offsets));
}

/** Binary search for the first instant whose wall clock has passed `wallMs`. */
function endOfGap(wallMs: number, zone: IANAZone, minOffset: number, maxOffset: number): number {
  let before = wallMs - maxOffset * MINUTE_MS; // the clock still reads earlier than wallMs here
  let after = wallMs - minOffset * MINUTE_MS; // and already reads later here
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (wallClockOf(mid, zone) >= wallMs) after = mid;
    else before = mid;
  }
  return Math.ceil(after / MINUTE_MS) * MINUTE_MS;
}
