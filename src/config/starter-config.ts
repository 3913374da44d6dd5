import { Document, isMap, isScalar, isSeq } from "yaml";
import type { ProjectSummary } from "../insights/types.js";
import { printableText } from "../render/printable-text.js";

// What `init` writes: the smallest config that runs — one team with the workspace's projects,
// in the zone it was given, and a weekly digest to a Slack channel — with the API and every
// secret left to the environment, so the file can be committed as it is.

export interface StarterConfigInput {
  team: string;
  timezone: string;
  channel: string;
  projects: readonly ProjectSummary[];
  /** The day it is written, for the header (ISO date). */
  today: string;
}

/** The digest `init` sets up: Monday 09:00 in the team's zone, last week against the week before. */
export const STARTER_DIGEST = { name: "weekly", schedule: "0 9 * * 1" } as const;

/** The starter config as YAML text, each project's name beside its id as a comment. */
export function starterConfigText(input: StarterConfigInput): string {
  const doc = new Document({
    api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}" },
    teams: [
      {
        name: input.team,
        timezone: input.timezone,
        projects: input.projects.map((p) => ({ id: p.id })),
        digests: [
          {
            name: STARTER_DIGEST.name,
            schedule: STARTER_DIGEST.schedule,
            period: "previous_week",
            compare_to: "previous_period",
            slack: { channel: input.channel },
          },
        ],
      },
    ],
  });
  doc.commentBefore = [
    ` Written by \`insights-reporter init\` on ${input.today}. Every setting is described in`,
    " config/reporter.example.yaml. The API key and SLACK_BOT_TOKEN stay in the environment.",
    " Keep the projects this team owns; check with: insights-reporter check-config --online",
  ].join("\n");
  const projects = doc.getIn(["teams", 0, "projects"], true);
  if (isSeq(projects)) {
    for (const [i, item] of projects.items.entries()) {
      const name = input.projects[i]?.name;
      const id = isMap(item) ? item.items[0]?.value : null;
      if (isScalar(id) && name) id.comment = ` ${printableText(name)}`;
    }
  }
  return doc.toString({ lineWidth: 0 });
}
