import type { SlackBlock } from "../../../messages.js";
import { linksPerProject, projectDashboardUrl } from "../../../render/project-links.js";
import { truncateText } from "../../../render/truncate-text.js";
import type { ProjectReport } from "../../../report/types.js";
import { escapeMrkdwn } from "./escape-mrkdwn.js";
import { SLACK_LIMITS } from "./slack-limits.js";

const LABEL_CHARS = 60;

/**
 * The dashboard links of the main message, as plain mrkdwn links: one per listed project when
 * the template names a project, else one for the team. Link buttons in an `actions` block show
 * a warning in Slack unless the app has an interactivity URL, which this app has no use for.
 * Null when there is no dashboard, or no URL Slack would accept.
 */
export function dashboardLinks(
  template: string | null,
  projects: readonly ProjectReport[],
): SlackBlock | null {
  if (template === null) return null;
  const targets = linksPerProject(template)
    ? projects.map((p) => ({
        label: p.name || p.projectId,
        url: projectDashboardUrl(template, p.projectId),
      }))
    : [{ label: "Open dashboard", url: template }];
  let text = "";
  for (const t of targets.filter((t) => t.url.length <= SLACK_LIMITS.urlChars)) {
    // Names are cut before escaping so an entity is never split; `|` and `>` would end the link.
    const label = escapeMrkdwn(truncateText(t.label, LABEL_CHARS)).replaceAll("|", "\u2758");
    const link = `<${t.url.replaceAll(">", "%3E").replaceAll("|", "%7C")}|${label}>`;
    const next = text === "" ? `Dashboards: ${link}` : `${text} \u00b7 ${link}`;
    if (next.length > SLACK_LIMITS.sectionChars) break;
    text = next;
  }
  return text === "" ? null : { type: "context", elements: [{ type: "mrkdwn", text }] };
}
