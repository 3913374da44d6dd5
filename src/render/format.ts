import { DateTime } from "luxon";
import type { Period } from "../periods/types.js";
import type { AmountFigure, RateFigure } from "../report/types.js";

// How figures read wherever people read them (Slack, mail, terminal): rates with one decimal,
// humanised durations, deltas in pp or %, noise marked. Pure; shared by every renderer.

const MINUS = "\u2212";

/** `value` rounded to `digits` decimals, as a number; a value that rounds to zero is 0, not −0. */
export function roundTo(value: number, digits: number): number {
  const r = Number(value.toFixed(digits));
  return r === 0 ? 0 : r;
}

/**
 * `value` with `digits` decimals, never "-0.0": the one rule every printed figure goes through
 * (a float a hair under zero, as a rate difference or an interval's low end, is not a fall).
 */
export function fixed(value: number, digits: number): string {
  return roundTo(value, digits).toFixed(digits);
}

/** A change with its sign: "+1.2", "−0.4" (a true minus), "±0.0" when it rounds to nothing. */
export function signedFixed(value: number, digits: number): string {
  const r = roundTo(Math.abs(value), digits);
  if (r === 0) return `\u00b1${fixed(0, digits)}`;
  return `${value > 0 ? "+" : MINUS}${fixed(r, digits)}`;
}

/** 0.938 → "93.8%"; null → "—". */
export function formatRate(fraction: number | null): string {
  return fraction === null ? "\u2014" : `${fixed(fraction * 100, 1)}%`;
}

/** "1 project", "3 projects": a count with its noun. */
export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;
}

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** 724000 → "12m 04s"; 45000 → "45s"; 3720000 → "1h 02m"; null → "—". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "\u2014";
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, "0")}m`;
  if (m > 0) return `${m}m ${String(s).padStart(2, "0")}s`;
  return `${s}s`;
}

/** A change in percentage points: "+1.2 pp", "−0.4 pp", "±0.0 pp". */
export function formatPp(pp: number): string {
  return `${signedFixed(pp, 1)} pp`;
}

/**
 * A count's or duration's change: "−8%", "+12%", or "(was 0)" when the prior was zero (a bare
 * "+19" beside percentages reads as a percentage).
 */
export function formatAmountChange(diff: number, pct: number | null): string {
  return pct === null ? (diff === 0 ? "\u00b10" : "(was 0)") : `${signedFixed(pct * 100, 0)}%`;
}

/** Whether a rising value of the figure is good news, bad news, or neither. */
export function risingIs(figure: RateFigure | AmountFigure): "good" | "bad" | "neutral" {
  switch (figure) {
    case "runPassRate":
    case "testPassRate":
      return "good";
    case "flakyRate":
    case "meanRunDurationMs":
    case "testsFailed":
    case "testsTimedOut":
    case "testsFlaky":
      return "bad";
    case "runs":
    case "tests":
      return "neutral";
  }
}

const BARS = ["\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"];

/**
 * A sparkline of values; a day without data is a space. Scaled from 0 to `top` — for lines set
 * side by side, one shared top, so equal bars mean equal values — else to its own max.
 */
export function sparkline(values: readonly (number | null)[], top?: number): string {
  const present = values.filter((v): v is number => v !== null);
  const max = top ?? Math.max(0, ...present);
  return values
    .map((v) => {
      if (v === null) return " ";
      if (max === 0) return BARS[0];
      const index = Math.min(BARS.length - 1, Math.floor((v / max) * (BARS.length - 1) + 0.5));
      return BARS[index];
    })
    .join("");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Nov 15, 2026", "Nov 9 – 15, 2026", "Oct 27 – Nov 2, 2026", "Dec 29, 2025 – Jan 4, 2026". */
export function formatPeriod(period: Period): string {
  // English month names always, as the rest of the text, whatever the machine's locale; and no
  // luxon DateTime for what is read off the ISO date (a digest formats periods dozens of times).
  const [startYear, startMonth, startDay] = dateParts(period.start);
  const [endYear, endMonth, endDay] = dateParts(period.end);
  const startText = `${MONTHS[startMonth - 1]} ${startDay}`;
  if (period.start === period.end) return `${startText}, ${startYear}`;
  if (startYear !== endYear)
    return `${startText}, ${startYear} \u2013 ${MONTHS[endMonth - 1]} ${endDay}, ${endYear}`;
  if (startMonth !== endMonth)
    return `${startText} \u2013 ${MONTHS[endMonth - 1]} ${endDay}, ${endYear}`;
  return `${startText} \u2013 ${endDay}, ${endYear}`;
}

/** Year, month (1–12) and day of an ISO date. */
function dateParts(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/**
 * "Wed 25 Nov 09:00 Europe/Berlin": an instant in a team's zone, in English whatever the
 * locale, as every Slack line about an alert or a snooze says it. With the date: "Mon 09:00"
 * said on a Monday would not tell this morning from next week.
 */
export function atZone(at: Date, zone: string): string {
  // en-US names the months in three letters ("Sep"); en-GB's ICU writes "Sept".
  return `${DateTime.fromJSDate(at, { zone }).setLocale("en-US").toFormat("ccc d LLL HH:mm")} ${zone}`;
}
