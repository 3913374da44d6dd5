import type { SlackBlock } from "../../messages.js";
import type { ProjectReport } from "../../report/types.js";
import { SLACK_LIMITS, truncateText } from "./slack-limits.js";

const PLACEHOLDER = "{project_id}";

/** Whether the dashboard template links each project (it has `{project_id}`) or the team. */
export function linksPerProject(template: string): boolean {
  return template.includes(PLACEHOLDER);
}

/** The dashboard URL of one project: the template with the id URL-encoded. */
export function projectDashboardUrl(template: string, projectId: string): string {
  return template.replaceAll(PLACEHOLDER, encodeURIComponent(projectId));
}

/**
 * The link buttons of the main message: one per listed project when the template names a
 * project (at most Slack's 25 per actions block), else one for the team. Null when there is
 * no dashboard, or no URL Slack would accept.
 */
export function dashboardButtons(
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
  const elements = targets
    .filter((t) => t.url.length <= SLACK_LIMITS.urlChars)
    .slice(0, SLACK_LIMITS.actionsElements)
    .map((t, i) => ({
      type: "button",
      // A url button still sends an action; a stable, unique id keeps Slack from refusing duplicates.
      action_id: `open_dashboard_${i}`,
      text: { type: "plain_text", text: truncateText(t.label, SLACK_LIMITS.buttonTextChars) },
      url: t.url,
    }));
  return elements.length > 0 ? { type: "actions", elements } : null;
}
