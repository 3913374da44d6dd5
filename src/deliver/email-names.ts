import type { Period } from "../periods/types.js";

/**
 * The names a digest mail carries: its Message-ID, its workbook's file name, and the command
 * that rebuilds that workbook when it was too big to attach.
 */

/**
 * `<checkout.daily.2026-11-15@insights-reporter>`: the same for every attempt of a delivery key,
 * so a resend after a crash is recognised by clients that de-duplicate on Message-ID.
 */
export function messageIdForKey(key: string): string {
  // The left part must be an RFC 5322 dot-atom; keys are [a-z0-9.-] already, this keeps it so.
  const local = key
    .replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^\.|\.$/g, "");
  return `<${local || "digest"}@insights-reporter>`;
}

/** `insights-checkout-2026-11-09_2026-11-15.xlsx`. */
export function attachmentName(team: string, period: Period): string {
  return `insights-${team}-${period.start}_${period.end}.xlsx`;
}

/** The command line that writes the same workbook, for a mail that could not carry it. */
export function exportCommand(
  team: string,
  period: Period,
  out = attachmentName(team, period),
): string {
  return `insights-reporter export --team ${team} --from ${period.start} --to ${period.end} --out ${out}`;
}

const ATTACHMENT_NAME = /^insights-([a-z0-9-]+)-(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})\.xlsx$/;

/** The export command for an attachment named by `attachmentName`, or null for any other name. */
export function exportCommandForAttachment(filename: string): string | null {
  const match = ATTACHMENT_NAME.exec(filename);
  if (!match) return null;
  const [, team = "", start = "", end = ""] = match;
  return exportCommand(team, { start, end }, filename);
}
