import type { AlertNotification, Attachment } from "../messages.js";
import type { Chart } from "../render/charts/trend-chart.js";
import { FIRE_CHARTS_MARK } from "./email/messages/email-alert.js";
import { chartImageHtml, emailCharts } from "./email/messages/email-charts.js";

// A fire's charts added to its recorded notification, for sending only: the PNGs are drawn
// again by each attempt and never stored. Only the fire's first messages carry them (a reply
// in its thread or a mail that follows its first does not): in Slack as uploads into the
// post's thread, each a recorded part; in the mail inline (`cid:`), under the transitions,
// with their words in the plain text.

/**
 * Whether a destination's message opens the fire (a reply in its thread, or a mail that
 * follows its first, does not): only such a message carries the fire's charts.
 */
export function opensFire(message: { threadKey?: string | null } | null): boolean {
  return message !== null && !message.threadKey;
}

/** What the destinations send: the notification with its fire's charts. */
export function withFireCharts(
  notification: AlertNotification,
  charts: readonly Chart[],
): AlertNotification {
  if (charts.length === 0) return notification;
  const { images, attachments } = emailCharts(charts);
  const { slack, email } = notification;
  return {
    ...notification,
    slack: slack && opensFire(slack) ? { ...slack, uploads: slackFiles(charts) } : slack,
    email:
      email && opensFire(email) && email.html.includes(FIRE_CHARTS_MARK)
        ? {
            ...email,
            html: email.html.replace(
              FIRE_CHARTS_MARK,
              images
                .map((image) => `<div style="margin-top:12px;">${chartImageHtml(image)}</div>`)
                .join("\n"),
            ),
            text: beforeLastLine(
              email.text,
              images.map((image) => image.alt),
            ),
            attachments,
          }
        : email,
  };
}

function slackFiles(charts: readonly Chart[]): Attachment[] {
  return charts.map((c) => ({
    filename: `${c.name}.png`,
    content: c.png,
    contentType: "image/png",
  }));
}

/** The chart's words in the plain text, before its last line (the footer with the key). */
function beforeLastLine(text: string, lines: readonly string[]): string {
  const cut = text.lastIndexOf("\n");
  if (cut < 0) return [text, "", ...lines].join("\n");
  return [text.slice(0, cut), "Chart:", ...lines.map((l) => `  ${l}`), text.slice(cut)].join("\n");
}
