import { ALERT_METRICS, type AlertMetric, lowIsBad, metricName } from "./alert-metrics.js";

// Which fires of one evaluation tick form an incident (issue 38 item 3): many projects that
// break together, across teams and alerts, are one cause more often than many — shared CI, a
// runner image, a dependency. Pure: the caller gathers the tick's fires and records the result.

/** One project that started firing in the tick, and the evaluation whose message announced it. */
export interface IncidentFire {
  team: string;
  alert: string;
  metric: AlertMetric;
  /** The project id (a team-wide fire, scope "team", is no project and never a member). */
  scope: string;
  /** The project as people read it. */
  name: string;
  value: number | null;
  /** The key of the alert evaluation that announced the fire: its message links the incident. */
  fireKey: string;
}

/** An incident: its members in a stable order, and what moved together in words. */
export interface IncidentPlan {
  members: IncidentFire[];
  /** Distinct projects among the members. */
  projects: number;
  /** The teams of the members, sorted. */
  teams: string[];
  /** "12 projects in 3 teams: flaky rate up, runs down — likely shared CI". */
  summary: string;
}

/** The incident the tick's fires form, or null when they span fewer than `minProjects` projects. */
export function formIncident(
  fires: readonly IncidentFire[],
  minProjects: number,
): IncidentPlan | null {
  const members = fires
    .filter((f) => f.scope !== "team")
    .sort(
      (a, b) =>
        a.team.localeCompare(b.team) ||
        a.alert.localeCompare(b.alert) ||
        a.scope.localeCompare(b.scope),
    );
  const projects = new Set(members.map((m) => m.scope)).size;
  if (members.length === 0 || projects < minProjects) return null;
  const teams = [...new Set(members.map((m) => m.team))].sort();
  return { members, projects, teams, summary: summaryOf(members, projects, teams) };
}

function summaryOf(members: readonly IncidentFire[], projects: number, teams: readonly string[]) {
  const moved = ALERT_METRICS.filter((metric) => members.some((m) => m.metric === metric))
    .map((metric) => `${metricName(metric)} ${lowIsBad(metric) ? "down" : "up"}`)
    .join(", ");
  const where = teams.length === 1 ? teams[0] : `${teams.length} teams`;
  const guess = teams.length > 1 ? " — likely shared CI" : "";
  return `${projects} projects in ${where}: ${moved}${guess}`;
}
