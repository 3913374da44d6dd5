import { addDays } from "./calendar-date.js";

// `history.keep`: how long the day store keeps a day. Years are calendar years: "2y" on
// 2027-03-01 keeps the days from 2025-03-01 on, and on 2028-02-29 those from 2026-03-01 on.

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
  const [year, month, day] = today.split("-").map(Number) as [number, number, number];
  // Date.UTC rolls 29 February of a common year over to 1 March: the later day, kept whole.
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year - keep.amount, month - 1, day);
  return date.toISOString().slice(0, 10);
}
