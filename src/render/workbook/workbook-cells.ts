import type ExcelJS from "exceljs";
import { fixed } from "../format.js";

// How one value becomes one workbook cell: the kinds of column we write, their Excel number
// formats, how wide their values print (for fitted widths), and the font colours of tones.
// Pure; shared by every sheet of the workbook.

export type CellValue = string | number | Date | null;

export type CellKind = "text" | "count" | "rate" | "pp" | "pct" | "duration" | "date";

/** Good news, bad news, or a warning; anything else stays uncoloured. */
export type CellTone = "good" | "bad" | "warn" | "neutral";

/** Excel number formats, as docs/configuration.md, "The workbook", promises them. */
export const NUMBER_FORMATS: Record<CellKind, string | undefined> = {
  text: undefined,
  count: "#,##0",
  rate: "0.0%",
  // Changes carry their sign only when it shows in the rounded figure: a change that rounds
  // to zero (−0.03 pp, +0.4%) falls to the third section and reads "0.0", never "-0.0" or
  // "+0.0". Excel prints only the sign a section spells. Values are stored exact and only
  // shown rounded, so a formula on them never inherits the rounding. pp cells hold percentage
  // points (0.0579 for +0.0579 pp), pct cells fractions (0.004 for +0.4%).
  pp: "[>=0.05]+0.0;[<=-0.05]-0.0;0.0",
  pct: "[>=0.005]+0%;[<=-0.005]-0%;0%",
  // A duration is a fraction of a day, shown as minutes and seconds (75:04 past an hour).
  duration: "[m]:ss",
  date: "yyyy-mm-dd",
};

/**
 * The font of every cell. Named and sized everywhere: a font entry with only `bold` makes
 * LibreOffice fall back to its default serif face.
 */
export const BASE_FONT = { name: "Calibri", family: 2, size: 11 } as const;

/** The font for `size` points, bold or not, in a tone's colour. */
export function fontOf(
  options: { bold?: boolean; tone?: CellTone; size?: number; link?: boolean } = {},
): Partial<ExcelJS.Font> {
  const colour = options.link ? LINK_COLOUR : options.tone ? TONE_COLOURS[options.tone] : undefined;
  return {
    ...BASE_FONT,
    ...(options.size ? { size: options.size } : {}),
    ...(options.bold ? { bold: true } : {}),
    ...(options.link ? { underline: true } : {}),
    ...(colour ? { color: { argb: colour } } : {}),
  };
}

const LINK_COLOUR = "FF0563C1";

const MS_PER_DAY = 86_400_000;

/** Milliseconds as the fraction of a day Excel keeps durations in. */
export function excelDuration(ms: number | null): number | null {
  return ms === null ? null : ms / MS_PER_DAY;
}

/** ARGB font colours; the same greens and reds the email uses, readable on white. */
export const TONE_COLOURS: Record<CellTone, string | undefined> = {
  good: "FF1A7F37",
  bad: "FFCF222E",
  warn: "FF9A6700",
  neutral: undefined,
};

/** Excel refuses longer cell text. */
const MAX_CELL_TEXT = 32_767;

/** An ISO date as a real Excel date, built in UTC so the machine's zone cannot shift it a day. */
export function excelDate(isoDate: string): Date {
  // Sliced, not split: this runs twice for each of a 2-year export's 72,700 Daily rows.
  const y = Number(isoDate.slice(0, 4));
  const m = Number(isoDate.slice(5, 7));
  const d = Number(isoDate.slice(8, 10));
  return new Date(Date.UTC(y, m - 1, d));
}

/** Text from the API or config, safe to store: always a plain string value, never over Excel's limit. */
export function cellText(text: string): string {
  return text.length > MAX_CELL_TEXT ? text.slice(0, MAX_CELL_TEXT) : text;
}

/** How many characters a value shows as in its column's format, for fitting column widths. */
export function displayLength(kind: CellKind, value: CellValue): number {
  if (value === null) return 0;
  if (typeof value === "string") return longestLine(value);
  if (value instanceof Date) return 10;
  switch (kind) {
    case "count":
      return groupedLength(Math.round(value));
    case "rate":
      return fixed(value * 100, 1).length + 1;
    case "pp":
      return Math.abs(value).toFixed(1).length + 1;
    case "pct":
      return Math.abs(Math.round(value * 100)).toString().length + 2;
    case "duration": {
      const seconds = Math.round(value * 86_400);
      return `${Math.floor(seconds / 60)}:00`.length;
    }
    default:
      return String(value).length;
  }
}

/**
 * The length of an integer written with thousands separators ("12,345" is 6), as
 * `toLocaleString("en-US")` writes it, without its cost (a tenth of a 2-year export's CPU).
 */
export function groupedLength(n: number): number {
  const digits = String(Math.abs(n)).length;
  return digits + Math.floor((digits - 1) / 3) + (n < 0 ? 1 : 0);
}

function longestLine(text: string): number {
  let longest = 0;
  for (const line of text.split("\n")) longest = Math.max(longest, line.length);
  return longest;
}
