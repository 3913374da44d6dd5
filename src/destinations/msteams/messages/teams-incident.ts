import type { TeamsMessage } from "../../../messages.js";
import {
  incidentMemberLine,
  incidentStatus,
  incidentTitle,
} from "../../../render/alert/incident-words.js";
import { truncateText } from "../../../render/truncate-text.js";
import type { IncidentRenderInput } from "../../destination-module.js";
import { container, richText, teamsMessage } from "./card-parts.js";

// An incident as a Teams card (issue 38 item 3): a red band with its title and a line per
// member; a green one when its last member resolved (a workflow cannot edit what it posted).

/** Members listed on the card; the rest are counted, so it stays far under Teams' 28 KB. */
const MEMBER_LINES = 60;

/** The incident's (or its resolution's) card. */
export function renderTeamsIncident(input: IncidentRenderInput): TeamsMessage {
  const { record, resolved } = input;
  const title = incidentTitle(record, resolved);
  const members = record.members.slice(0, MEMBER_LINES).map(incidentMemberLine);
  const more = record.members.length - members.length;
  return teamsMessage(
    [
      container(
        [richText([{ text: truncateText(title, 300), bold: true, size: "medium" }])],
        resolved ? "good" : "attention",
      ),
      richText([incidentStatus(record, resolved)]),
      ...(resolved
        ? []
        : [
            ...members.map((line) => richText([truncateText(line, 200)], { spacing: "none" })),
            ...(more > 0 ? [richText([{ text: `and ${more} more`, subtle: true }])] : []),
          ]),
      richText([{ text: input.incidentKey, subtle: true, size: "small" }], { separator: true }),
    ],
    title,
  );
}
