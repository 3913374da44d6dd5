import type { Attachment, EmailMessage } from "../../../messages.js";
import { ATTACHED_MARK } from "./email-digest.js";
import { escapeHtml } from "./email-html.js";

// The size cap (`email.max_bytes`): a mail whose attachments would push it over the cap goes
// without them, and says why and how to get the workbook, rather than bouncing off a server's
// size limit and reaching no one.

export interface SizedMessage {
  message: EmailMessage;
  /** Attachments left out because of the cap. */
  dropped: Attachment[];
  /** Size in bytes of the message with every attachment, when it was measured. */
  fullBytes: number | null;
}

export interface SizeCap {
  maxBytes: number;
  /** The composed size of a message as the destination would send it. */
  measure(message: EmailMessage): Promise<number>;
  /** How to get a left-out file, e.g. the `insights-reporter export …` command line. */
  hint: string | null;
}

/** The message as it may be sent under the cap, measured as the composed MIME bytes. */
export async function fitEmailToSize(message: EmailMessage, cap: SizeCap): Promise<SizedMessage> {
  // Inline charts stay: the body shows them, and they are small beside a workbook.
  const dropped = message.attachments.filter((a) => a.cid === undefined);
  if (dropped.length === 0) return { message, dropped: [], fullBytes: null };
  const fullBytes = await cap.measure(message);
  if (fullBytes <= cap.maxBytes) return { message, dropped: [], fullBytes };

  const { hint } = cap;
  const files = dropped.map((a) => `${a.filename} (${megabytes(a.content.length)})`).join(", ");
  const why = `The workbook ${files} is not attached: with it this mail would be ${megabytes(fullBytes)}, over the ${megabytes(cap.maxBytes)} limit (email.max_bytes).`;
  const how = hint ? "To get it, run:" : "Ask the sender to export it, or raise email.max_bytes.";
  // The body said the workbook is attached: say nothing of the kind now.
  const said = new RegExp(`${ATTACHED_MARK.start}[\\s\\S]*?${ATTACHED_MARK.end}`);
  const html = message.html.replace(said, "");
  const bodyText = message.text.replace(/^Attached: .*\n/m, "");
  const text = `${bodyText.trimEnd()}\n\n${why}\n${how}${hint ? `\n  ${hint}` : ""}\n`;
  const note =
    `<p style="font-family:Arial,sans-serif;font-size:13px;color:#1f2328;margin:16px;">${escapeHtml(why)}<br>${escapeHtml(how)}` +
    `${hint ? `<br><code style="font-family:Consolas,Menlo,monospace;">${escapeHtml(hint)}</code>` : ""}</p>`;
  return {
    message: {
      ...message,
      attachments: message.attachments.filter((a) => a.cid !== undefined),
      text,
      html: beforeBodyEnd(html, note),
    },
    dropped,
    fullBytes,
  };
}

function beforeBodyEnd(html: string, addition: string): string {
  const end = html.toLowerCase().lastIndexOf("</body>");
  return end === -1
    ? `${html}\n${addition}`
    : `${html.slice(0, end)}${addition}\n${html.slice(end)}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
