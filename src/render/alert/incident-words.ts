import type { AlertMetric } from "../../alerts/alert-metrics.js";
import type { IncidentMemberRecord, IncidentRecord } from "../../state/incidents.js";
import { formatMetric } from "./alert-view.js";

// An incident in words every destination kind shares (issue 38 item 3): its title, open or
// resolved, and one line per member. Plain text: escape before mrkdwn or HTML.

/** "Incident: 3 projects in 2 teams: …", or once its last member resolved "Resolved incident: …". */
export function incidentTitle(record: IncidentRecord, resolved: boolean): string {
  return `${resolved ? "Resolved incident" : "Incident"}: ${record.summary}`;
}

/** "checkout · runs-low · Web: 9": the member's team, alert, project and value when it fired. */
export function incidentMemberLine(m: IncidentMemberRecord): string {
  return `${m.team} · ${m.alert} · ${m.name}: ${formatMetric(m.metric as AlertMetric, m.value)}`;
}

/** What the incident says under its title: how many members, and whether they are all back. */
export function incidentStatus(record: IncidentRecord, resolved: boolean): string {
  const n = record.members.length;
  return resolved
    ? `All ${n} members are back to normal.`
    : `${n} members fired together; each alert also went to its own destinations.`;
}
