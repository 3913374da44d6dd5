import { addDays, addMonths } from "./calendar-date.js";

// `history.keep`: how long the day store keeps a day. Years are calendar years, counted as
// 12 months by addMonths: "2y" on 2027-03-01 keeps the days from 2025-03-01 on, and on
// 2028-02-29 those from 2026-02-28 on (a day more kept, never a day less).

/** How long days are kept: a whole number of days, weeks or calendar years. */
export interface Retention {
  amount: number;
  unit: "d" | "w" | "y";
}

const RETENTION = /^(\d+)\s*(d|w|y)$/;

/** The retention of a `history.keep` text the schema accepted ("2y", "18w", "400d"). */
export function parseRetention(text: string): Retention {
  const match = RETENTION.exec(text.trim());
  if (!match) throw new Error(`not a retention: ${JSON.stringify(text)}`);
  return { amount: Number(match[1]), unit: match[2] as Retention["unit"] };
}

/** The first date kept on `today` (ISO dates): days before it are forgotten. */
export function firstKeptDate(today: string, keep: Retention): string {
  if (keep.unit === "d") return addDays(today, -keep.amount);
  if (keep.unit === "w") return addDays(today, -7 * keep.amount);
  return addMonths(today, -12 * keep.amount);
}
