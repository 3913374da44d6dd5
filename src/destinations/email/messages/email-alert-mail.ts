import type { Attachment } from "../../../messages.js";
import type { Chart } from "../../../render/charts/trend-chart.js";
import { chartImageHtml, emailCharts } from "./email-charts.js";

// An alert's recorded mail as it is sent: the fire's charts, drawn at send time, shown inline
// (`cid:`) at the place the card keeps for them (`chartsAt`: under the transitions), with
// their words in the plain text before its footer, so a mail with images blocked says as much.

/** The mail's body and its inline parts, with the fire's charts where the card keeps them. */
export function alertMailWithCharts(
  mail: { html: string; text: string; chartsAt: { html: number; text: number } },
  charts: readonly Chart[],
): { html: string; text: string; attachments: Attachment[] } {
  if (charts.length === 0) return { html: mail.html, text: mail.text, attachments: [] };
  const { images, attachments } = emailCharts(charts);
  const html = images
    .map((image) => `<div style="margin-top:12px;">${chartImageHtml(image)}</div>`)
    .join("\n");
  // A paragraph of its own: a blank line before it, and one before the footer.
  const text = ["", "Chart:", ...images.map((image) => `  ${image.alt}`), ""].join("\n");
  return {
    html: at(mail.html, mail.chartsAt.html, html),
    text: at(mail.text, mail.chartsAt.text, text),
    attachments,
  };
}

/** `body` with `block` at `offset`, where the renderer left room for it. */
function at(body: string, offset: number, block: string): string {
  return body.slice(0, offset) + block + body.slice(offset);
}
