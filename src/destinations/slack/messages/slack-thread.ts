import type { SlackMessage } from "../../../messages.js";
import { WORST_FIRST_LABEL } from "../../../render/worst-first.js";
import type { ProjectReport } from "../../../report/types.js";
import { MESSAGE_TEXT_BUDGET, SLACK_LIMITS } from "./slack-limits.js";
import { fieldSections, projectField } from "./slack-project-field.js";

// Room in each reply for its context line and fallback text besides the fields.
const FIELDS_BUDGET = MESSAGE_TEXT_BUDGET - 1000;
// One block of each reply is its context line.
const MAX_FIELDS = (SLACK_LIMITS.blocks - 1) * SLACK_LIMITS.fields;

/**
 * The thread under a digest: every project exactly once, in the order given, as section
 * fields packed into as many replies as it takes for each to stay within Slack's limits.
 * `title` is mrkdwn (already escaped), e.g. "Checkout squad · daily · Nov 15, 2026".
 */
export function threadReplies(
  title: string,
  projects: readonly ProjectReport[],
  dashboardUrl: string | null,
): SlackMessage[] {
  const groups: string[][] = [];
  let group: string[] = [];
  let chars = 0;
  for (const project of projects) {
    const field = projectField(project, dashboardUrl);
    if (group.length > 0 && (chars + field.length > FIELDS_BUDGET || group.length >= MAX_FIELDS)) {
      groups.push(group);
      group = [];
      chars = 0;
    }
    group.push(field);
    chars += field.length;
  }
  if (group.length > 0) groups.push(group);

  let first = 1;
  return groups.map((fields) => {
    const range = `projects ${first}\u2013${first + fields.length - 1} of ${projects.length}`;
    first += fields.length;
    const context = `*${capitalise(range)}* \u00b7 ${WORST_FIRST_LABEL}, unavailable last`;
    return {
      text: `${title}: ${range}`,
      blocks: [
        { type: "context", elements: [{ type: "mrkdwn", text: context }] },
        ...fieldSections(fields),
      ],
    };
  });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
