import type { IANAZone } from "luxon";
import { wallClockCron } from "./cron-expression.js";
import { instantOfWallClock, wallClockOf, zoneNamed } from "./zone-clock.js";

// When a cron schedule fires in an IANA zone. The expression is iterated over the zone's wall
// clock (in UTC, so the library sees no DST) and each wall-clock time is mapped to the first
// instant the zone's clock reaches it: a time in a spring-forward gap fires once at the end of
// the gap, a time in a repeated hour fires once at its first occurrence, and several times
// that land on the same instant (a gap's worth of "*\/15") are one fire.

// Scanning backwards starts this far ahead of the clock, past any repeated hour (DST shifts
// are at most 2 h in real zones), so a fire in the first occurrence is not missed.
const BACKWARD_MARGIN_MS = 3 * 60 * 60_000;

/** The next `count` fires strictly after `after`. */
export function nextFires(expr: string, zone: string, after: Date, count: number): Date[] {
  const fires: Date[] = [];
  if (count <= 0) return fires;
  for (const fire of firesFrom(expr, zone, after)) {
    fires.push(fire);
    if (fires.length >= count) break;
  }
  return fires;
}

/** Every fire in (fromExclusive, toInclusive]. */
export function firesBetween(
  expr: string,
  zone: string,
  fromExclusive: Date,
  toInclusive: Date,
): Date[] {
  const fires: Date[] = [];
  for (const fire of firesFrom(expr, zone, fromExclusive)) {
    if (fire.getTime() > toInclusive.getTime()) break;
    fires.push(fire);
  }
  return fires;
}

/** The latest fire in [notBefore, at], or null: the fire a late start may still catch up on. */
export function latestFireAtOrBefore(
  expr: string,
  zone: string,
  at: Date,
  notBefore: Date,
): Date | null {
  const tz = zoneNamed(zone);
  const cron = wallClockCron(expr);
  let wall: number | null = wallClockOf(at.getTime(), tz) + backwardMargin(at, tz);
  for (;;) {
    wall = cron.prev(wall);
    if (wall === null) return null;
    const instant = instantOfWallClock(wall, tz);
    // Fire instants never decrease as the wall clock advances, so the first one at or before
    // `at` is the latest.
    if (instant > at.getTime()) continue;
    return instant >= notBefore.getTime() ? new Date(instant) : null;
  }
}

/**
 * How far ahead of `at`'s wall clock a backward scan starts: past a repeated hour when a DST
 * shift is near (a fire in its first occurrence must not be missed), else just past `at`, so
 * an every-minute schedule is not walked back through hours of fires.
 */
function backwardMargin(at: Date, tz: IANAZone): number {
  const t = at.getTime();
  const offset = tz.offset(t);
  const steady =
    tz.offset(t - BACKWARD_MARGIN_MS) === offset && tz.offset(t + BACKWARD_MARGIN_MS) === offset;
  return steady ? 60_000 : BACKWARD_MARGIN_MS;
}

/** How far back a previous fire is looked for: past any yearly schedule. */
const PREVIOUS_FIRE_LOOKBACK_MS = 400 * 86_400_000;

/** The schedule's last fire strictly before `before`, or null when none within a year or so. */
export function previousFire(expr: string, zone: string, before: Date): Date | null {
  return latestFireAtOrBefore(
    expr,
    zone,
    new Date(before.getTime() - 1),
    new Date(before.getTime() - PREVIOUS_FIRE_LOOKBACK_MS),
  );
}

/** Fires strictly after `after`, in order, lazily. */
function* firesFrom(expr: string, zone: string, after: Date): Generator<Date> {
  const tz = zoneNamed(zone);
  const cron = wallClockCron(expr);
  // A wall-clock time at or before the clock's reading at `after` has already fired.
  let wall: number | null = wallClockOf(after.getTime(), tz);
  let last = after.getTime();
  for (;;) {
    wall = cron.next(wall);
    if (wall === null) return;
    const instant = instantOfWallClock(wall, tz);
    if (instant <= last) continue; // the repeated hour's second pass, or a collapsed gap fire
    last = instant;
    yield new Date(instant);
  }
}
