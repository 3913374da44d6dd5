import {
  incidentMemberLine,
  incidentStatus,
  incidentTitle,
} from "../../../render/alert/incident-words.js";
import type { IncidentRenderInput } from "../../destination-module.js";
import { COLOURS, escapeHtml, FONT, headingHtml, paragraphHtml } from "./email-html.js";

// An incident as mail (issue 38 item 3): its title as the subject, a line per member, and when
// its last member resolved a short follow-up in the same thread (the job sets In-Reply-To).

/** The incident's (or its resolution's) subject, HTML and plain text. */
export function renderIncidentEmail(input: IncidentRenderInput): {
  subject: string;
  html: string;
  text: string;
} {
  const { record, resolved } = input;
  const title = incidentTitle(record, resolved);
  const status = incidentStatus(record, resolved);
  const lines = record.members.map(incidentMemberLine);
  const colour = resolved ? COLOURS.good : COLOURS.bad;
  const html = [
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="${FONT}border:1px solid ${COLOURS.border};border-top:4px solid ${colour};">`,
    headingHtml(title),
    paragraphHtml(escapeHtml(status)),
    ...(resolved ? [] : lines.map((line) => paragraphHtml(escapeHtml(line)))),
    paragraphHtml(escapeHtml(input.incidentKey), `color:${COLOURS.neutral};font-size:12px;`),
    "</table>",
  ].join("\n");
  const text = [title, "", status, ...(resolved ? [] : ["", ...lines]), "", input.incidentKey]
    .join("\n")
    .concat("\n");
  return { subject: title, html, text };
}
