// Dates as the insights API writes them. Day buckets carry `%b %e, %Y` (`Nov  2, 2026`: the
// day is space-padded, so single-digit days have two spaces); ranges carry ISO dates.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const API_DATE = /^([A-Z][a-z]{2}) {1,2}(\d{1,2}), (\d{4})$/;

/** `Nov  2, 2026` (one space tolerated) → `2026-11-02`; null when it is not a real date. */
export function parseApiDate(text: string): string | null {
  const match = API_DATE.exec(text);
  if (!match) return null;
  const month = MONTHS.indexOf(match[1] ?? "") + 1;
  if (month === 0) return null;
  return isoDate(Number(match[3]), month, Number(match[2]));
}

/** `2026-11-02` → `Nov  2, 2026`, exactly as the API writes it. */
export function formatApiDate(iso: string): string {
  const [year, month, day] = iso.split("-").map(Number);
  return `${MONTHS[(month ?? 1) - 1]} ${String(day).padStart(2, " ")}, ${year}`;
}

function isoDate(year: number, month: number, day: number): string | null {
  // Checked by arithmetic, not through a Date: each day of every answer is read here.
  if (day < 1 || day > daysInMonth(year, month)) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return leap ? 29 : 28;
}
