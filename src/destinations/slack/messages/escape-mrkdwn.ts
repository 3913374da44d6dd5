// Slack mrkdwn escaping. Anything that came from the API or config (project names, branches,
// tags, error messages, team titles) goes through here before it lands in a mrkdwn text, so a
// branch called `<!channel>` shows as text and pings no one. Plain-text places (a header, a
// button label, a table's raw_text cell) are not parsed by Slack and must not be escaped.

/** Escapes the three characters Slack's mrkdwn treats as control characters: &, <, >. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A mrkdwn link `<url|label>` with both parts escaped; a `|` in the URL would end it early. */
export function mrkdwnLink(url: string, label: string): string {
  return `<${escapeMrkdwn(url.replace(/\|/g, "%7C"))}|${escapeMrkdwn(label)}>`;
}
