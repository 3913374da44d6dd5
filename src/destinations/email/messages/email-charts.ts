import type { Attachment } from "../../../messages.js";
import type { Chart } from "../../../render/charts/trend-chart.js";
import { COLOURS, escapeHtml, FONT, headingHtml } from "./email-html.js";

// The digest's charts in a mail: each PNG a `cid:` part the HTML shows inline (no remote
// images, which clients block and which would need a public URL), at most 360 CSS px wide and
// shrinking with the screen, so a 390 px phone shows it whole. Every image carries its words
// as alt text, and the plain-text part says the same, so a mail with images blocked still
// tells the whole story.

const TRENDS_TITLE = "Trends";

/** A chart as the mail shows it. */
export interface EmailChart {
  cid: string;
  alt: string;
  cssWidth: number;
}

/** The inline parts of the charts and how the mail names them. */
export function emailCharts(charts: readonly Chart[]): {
  images: EmailChart[];
  attachments: Attachment[];
} {
  const images = charts.map((c) => ({
    cid: `${c.name}@insights-reporter`,
    alt: c.alt,
    cssWidth: c.cssWidth,
  }));
  const attachments = charts.map((c, i) => ({
    filename: `${c.name}.png`,
    content: c.png,
    contentType: "image/png",
    cid: images[i]?.cid ?? c.name,
  }));
  return { images, attachments };
}

/** The Trends section's rows in the card; none without charts. */
export function chartsHtml(images: readonly EmailChart[]): string[] {
  if (images.length === 0) return [];
  return [
    headingHtml(TRENDS_TITLE),
    ...images.map(
      (image) =>
        `<tr><td style="padding:6px 24px;${FONT}font-size:12px;color:${COLOURS.neutral};">` +
        `${chartImageHtml(image)}</td></tr>`,
    ),
  ];
}

/** One chart as an inline image (its `cid:` part), as wide as the phone allows, with its words as alt text. */
export function chartImageHtml(image: EmailChart): string {
  return `<img src="cid:${escapeHtml(image.cid)}" width="${image.cssWidth}" alt="${escapeHtml(image.alt)}" style="display:block;width:100%;max-width:${image.cssWidth}px;height:auto;border:0;">`;
}

/** The Trends section in plain text: each chart in words. */
export function chartsText(images: readonly EmailChart[]): string[] {
  if (images.length === 0) return [];
  return ["", TRENDS_TITLE, ...images.map((image) => `  ${image.alt}`)];
}
