// Cutting a name or a line to a destination's limit, for every kind: Slack, Teams and the alert
// lines all keep their text whole or end it in "…".

/**
 * Shortens `text` to at most `max` UTF-16 units, ending in "…". Never splits a surrogate pair,
 * and never leaves half of a mrkdwn entity (`&am`) or link (`<https://…`) behind.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = "";
  for (const point of text) {
    if (out.length + point.length > max - 1) break;
    out += point;
  }
  out = out.replace(/&[a-z]{0,4}$/, "").replace(/<[^>]*$/, "");
  return `${out}\u2026`;
}
