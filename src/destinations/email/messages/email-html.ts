import { deltaView, deltaWords, toneOf } from "../../../render/delta-view.js";
import type { AmountDelta, AmountFigure, RateDelta, RateFigure } from "../../../report/types.js";

// The small pieces of mail HTML: escaping, colours and delta cells. Mail clients (Gmail,
// Outlook's Word engine) drop <style> blocks and modern CSS, so everything is inline styles on
// tables, and colours are plain hex.

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

export const COLOURS = {
  good: "#1a7f37",
  bad: "#cf222e",
  neutral: "#57606a",
  text: "#1f2328",
  border: "#d0d7de",
  muted: "#f6f8fa",
  alert: "#fff1f0",
};

export const FONT = "font-family:Arial,sans-serif;";

/** A delta as people read it ("↑ +1.2 pp", "≈ +0.3 pp", "new"), coloured by whether it is good news. */
export function deltaHtml(
  figure: RateFigure | AmountFigure,
  delta: RateDelta | AmountDelta,
): string {
  const text = emailDeltaText(figure, delta);
  if (text === "") return "";
  const colour = COLOURS[toneOf(deltaView(figure, delta))];
  // Non-breaking spaces keep "↑ +1.2 pp" on one line, shorter than a white-space style.
  return `<span style="color:${colour};">${escapeHtml(text).replaceAll(" ", "&nbsp;")}</span>`;
}

/** The delta's words with its arrow: "↑ +1.2 pp", "≈ +0.1 pp", "new"; "" when none. */
export function emailDeltaText(
  figure: RateFigure | AmountFigure,
  delta: RateDelta | AmountDelta,
): string {
  const view = deltaView(figure, delta);
  if (view.verdict === "none") return "";
  if (view.verdict === "noise" || view.arrow === "") return deltaWords(view);
  return `${view.arrow} ${view.text}`;
}

/** A link only to http(s) URLs, so a config value cannot smuggle in `javascript:`. */
export function linkHtml(label: string, url: string | null): string {
  if (url === null || !/^https?:\/\//i.test(url)) return escapeHtml(label);
  return `<a href="${escapeHtml(url)}" style="color:${COLOURS.text};">${escapeHtml(label)}</a>`;
}

/** A section heading inside the card. */
export function headingHtml(text: string): string {
  return `<tr><td style="padding:16px 24px 6px;${FONT}font-size:15px;font-weight:bold;color:${COLOURS.text};">${escapeHtml(text)}</td></tr>`;
}

/** A paragraph of already-built HTML inside the card. */
export function paragraphHtml(html: string, style = ""): string {
  return `<tr><td style="padding:4px 24px;${FONT}font-size:13px;line-height:1.45;color:${COLOURS.text};${style}">${html}</td></tr>`;
}

/** A data table inside the card: header cells, then rows of already-built cell HTML. */
export function tableHtml(
  headers: readonly { text: string; align?: "left" | "right" }[],
  rows: readonly string[][],
): string {
  const th = headers
    .map(
      (h) =>
        `<th align="${h.align ?? "left"}" style="${CELL}font-size:12px;color:${COLOURS.neutral};border-bottom:1px solid ${COLOURS.border};">${escapeHtml(h.text)}</th>`,
    )
    .join("");
  // Per-cell styles are kept short and rows striped with bgcolor rather than bordered cells:
  // the project table must stay well under Gmail's ~102 KB clip.
  const body = rows
    .map(
      (cells, r) =>
        `<tr valign="top"${r % 2 === 1 ? ` bgcolor="${COLOURS.muted}"` : ""}>${cells
          .map(
            (cell, i) =>
              `<td${headers[i]?.align === "right" ? ' align="right"' : ""} style="${CELL}">${cell}</td>`,
          )
          .join("")}</tr>`,
    )
    .join("");
  return `<tr><td style="padding:0 16px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;color:${COLOURS.text};"><tr>${th}</tr>${body}</table></td></tr>`;
}

// Outlook's Word engine does not inherit fonts into table cells: each cell names its own.
const CELL = `padding:5px 8px;${FONT}font-size:13px;`;
