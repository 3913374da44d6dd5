import type { Period } from "../../periods/types.js";

/** `insights-checkout-2026-11-09_2026-11-15.xlsx`: the file name of a digest's workbook. */
export function workbookFileName(team: string, period: Period): string {
  return `insights-${team}-${period.start}_${period.end}.xlsx`;
}

/** The command line that writes the same workbook, for a mail that could not carry it. */
export function exportCommandLine(
  team: string,
  period: Period,
  out = workbookFileName(team, period),
): string {
  return `insights-reporter export --team ${team} --from ${period.start} --to ${period.end} --out ${out}`;
}
