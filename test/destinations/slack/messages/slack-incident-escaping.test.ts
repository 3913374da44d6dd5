import { describe, expect, it } from "vitest";
import {
  slackIncidentPost,
  slackIncidentResolved,
} from "../../../../src/destinations/slack/messages/slack-incident.js";
import type { IncidentRecord } from "../../../../src/state/incidents.js";

// An incident's post names projects from the API: its notification text (mrkdwn) and its
// replies must ping no one and link nowhere, like every other message of ours.

const HOSTILE = "<!channel> see <http://evil.example|here> www.evil.example";

const record: IncidentRecord = {
  summary: `3 projects in 2 teams: flaky rate up — ${HOSTILE}`,
  channel: "C0INCIDENTS",
  members: [
    {
      team: "ci",
      alert: "flaky-rate",
      metric: "flaky_rate",
      scope: "p1",
      name: HOSTILE,
      value: 9,
      fireKey: "ci.alert.flaky-rate.2026-11-20",
      channel: "C0CI",
    },
  ],
};

const live = /<[!@#]|<https?:|www\.evil\.example/;

describe("an incident in Slack, for hostile project names", () => {
  it("pings no one and links nowhere in its notification text, its replies and its resolution", () => {
    const post = slackIncidentPost("incident.2026-11-20T08:00:00.000Z", record);
    const resolved = slackIncidentResolved("incident.2026-11-20T08:00:00.000Z", record);
    const texts = [post.main.text, ...post.thread.map((r) => r.text), resolved.text];
    for (const text of texts) expect(text).not.toMatch(live);
    const blocks = JSON.stringify([post.main.blocks, post.thread, resolved.blocks]);
    expect(blocks).not.toMatch(/www\.evil\.example/);
  });
});
