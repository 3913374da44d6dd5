import type { SlackBlock, SlackMessage, SlackPost } from "../../../messages.js";
import { incidentMemberLine, incidentTitle } from "../../../render/alert/incident-words.js";
import { truncateText } from "../../../render/truncate-text.js";
import type { IncidentMemberRecord, IncidentRecord } from "../../../state/incidents.js";
import { escapeMrkdwn, plainName } from "./escape-mrkdwn.js";

// An incident in Slack (issue 38 item 3): one post naming what fired together, a reply per
// member, the line each member's own message gains, and the green edit and reply when the last
// member resolves. The blocks are plain text, names defused so Slack links none of them; the
// top-level text (the notification) is mrkdwn, so it is escaped like every message's.

/** A project's name in a member's reply, as an alert's message cuts it: Slack refuses a long one. */
const NAME_CHARS = 80;

const plain = (text: string): SlackBlock => ({
  type: "section",
  text: { type: "plain_text", text: plainName(text), emoji: true },
});
const context = (text: string): SlackBlock => ({
  type: "context",
  elements: [{ type: "plain_text", text: plainName(text), emoji: true }],
});

/** The incident's post: what moved together, then one reply per member in its thread. */
export function slackIncidentPost(key: string, record: IncidentRecord): SlackPost {
  const text = `🚨 ${incidentTitle(record, false)}`;
  return {
    main: {
      text: escapeMrkdwn(text),
      blocks: [
        plain(text),
        context(`${record.members.length} members, each a reply in this thread · ${key}`),
      ],
    },
    metadata: { event_type: "insights_incident", event_payload: { key } },
    thread: record.members.map((member) => {
      const line = memberLine(member);
      return { text: escapeMrkdwn(line), blocks: [plain(line)] };
    }),
  };
}

/** A member's line with its project's name cut, so the reply stays within Slack's limits. */
function memberLine(member: IncidentMemberRecord): string {
  return incidentMemberLine({ ...member, name: truncateText(member.name, NAME_CHARS) });
}

/** The incident's first message once its last member resolved: green, saying so. */
export function slackIncidentResolved(key: string, record: IncidentRecord): SlackMessage {
  const text = `✅ ${incidentTitle(record, true)}`;
  return {
    text: escapeMrkdwn(text),
    blocks: [plain(text), context(`every member is back to normal · ${key}`)],
  };
}

/** The reply in the incident's thread when its last member resolved. */
export function slackIncidentResolvedReply(key: string, record: IncidentRecord): SlackPost {
  const text = `✅ Resolved: all ${record.members.length} members are back to normal.`;
  return {
    main: { text: escapeMrkdwn(text), blocks: [plain(text)] },
    metadata: { event_type: "insights_incident", event_payload: { key } },
    thread: [],
  };
}

/**
 * A member's own message with the line that names its incident: a text reference (Slack's
 * permalink is not known without another call), with the channel where the incident is.
 */
export function withIncidentLine(
  message: SlackMessage,
  key: string,
  channel: string | null,
): SlackMessage {
  const where = channel ? ` in ${channel}` : "";
  const line = `Part of incident ${key}${where}`;
  const blocks = message.blocks.filter((b) => !isIncidentLine(b));
  return { text: message.text, blocks: [...blocks, { ...context(line), block_id: LINE_ID }] };
}

const LINE_ID = "insights-incident";
const isIncidentLine = (block: SlackBlock) => block.block_id === LINE_ID;
