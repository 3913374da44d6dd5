import { ALERT_METRIC_TABLE, ALERT_METRICS, type AlertMetric } from "../alerts/alert-metrics.js";
import { DESTINATION_KINDS } from "../destinations/config-registry.js";
import type { ConfigIssue } from "../errors.js";
import { describeCronError } from "../timetable/cron-expression.js";
import { describeZoneProblem } from "./describe-zone-problem.js";
import { asRecords, asText, type Loose } from "./loose-access.js";
import { DEFAULT_ALERT_METRIC, DEFAULT_PERIOD } from "./schema.js";
import { checkThresholds } from "./threshold-rules.js";

/** Periods longer than a week, which cannot be compared with "the same period last week". */
const LONGER_THAN_A_WEEK = new Set(["previous_month", "previous_quarter", "last_28_days"]);

/** The rules one team must meet beyond its schema: zone, schedules, uniqueness, destinations, thresholds. */
export function checkTeam(team: Loose, at: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const zone = asText(team.timezone);
  const zoneProblem = zone === undefined ? null : describeZoneProblem(zone);
  if (zoneProblem) issues.push({ path: `${at}.timezone`, message: zoneProblem });
  issues.push(...checkDashboardUrl(team.dashboard_url, `${at}.dashboard_url`));

  const projects = asRecords(team.projects);
  const digests = asRecords(team.digests);
  const alerts = asRecords(team.alerts);
  issues.push(...checkUnique(projects, "id", `${at}.projects`, "project"));
  issues.push(...checkUnique(digests, "name", `${at}.digests`, "digest name"));
  issues.push(...checkUnique(alerts, "name", `${at}.alerts`, "alert name"));

  for (const [i, digest] of digests) {
    const path = `${at}.digests[${i}]`;
    issues.push(...checkSchedule(digest, path), ...checkHasDestination(digest, path, "digest"));
    const period = asText(digest.period) ?? DEFAULT_PERIOD;
    const compareTo = asText(digest.compare_to);
    const weekly = compareTo === "same_period_last_week" || compareTo === "median_of_4_weeks";
    if (weekly && LONGER_THAN_A_WEEK.has(period)) {
      issues.push({
        path: `${path}.compare_to`,
        message: `${compareTo} needs a period of at most 7 days, but ${period} is longer — use compare_to: previous_period`,
      });
    }
  }
  for (const [i, alert] of alerts) {
    const path = `${at}.alerts[${i}]`;
    issues.push(...checkSchedule(alert, path), ...checkHasDestination(alert, path, "alert"));
    issues.push(...checkThresholds(alert, path), ...checkChart(alert, path));
  }
  return issues;
}

/** An alert's `chart: true` on a metric no chart draws would draw nothing, silently. */
function checkChart(alert: Loose, path: string): ConfigIssue[] {
  if (alert.chart !== true) return [];
  const metric = (asText(alert.metric) ?? DEFAULT_ALERT_METRIC) as AlertMetric;
  if (!(metric in ALERT_METRIC_TABLE) || ALERT_METRIC_TABLE[metric].charted) return [];
  const list = ALERT_METRICS.filter((m) => ALERT_METRIC_TABLE[m].charted);
  const charted = `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
  return [
    {
      path: `${path}.chart`,
      message: `charts are drawn for ${charted} only, not ${metric} — remove chart, or alert on one of those`,
    },
  ];
}

/** A dashboard link template must say where the project id goes. */
export function checkDashboardUrl(value: unknown, path: string): ConfigIssue[] {
  const template = asText(value);
  if (template === undefined || template.includes("{project_id}")) return [];
  return [
    {
      path,
      message: `must contain {project_id} where the project's id goes, e.g. "https://insights.example.com/projects/{project_id}"`,
    },
  ];
}

/** One issue per repeated `key` value in a list, pointing at the first use. */
export function checkUnique(
  items: [number, Loose][],
  key: string,
  listPath: string,
  what: string,
): ConfigIssue[] {
  const firstIndex = new Map<string, number>();
  const issues: ConfigIssue[] = [];
  for (const [i, item] of items) {
    const value = asText(item[key]);
    if (value === undefined) continue;
    const first = firstIndex.get(value);
    if (first === undefined) {
      firstIndex.set(value, i);
      continue;
    }
    issues.push({
      path: `${listPath}[${i}].${key}`,
      message: `${what} "${value}" is already used by ${listPath}[${first}] — each ${what} must be unique here`,
    });
  }
  return issues;
}

function checkSchedule(item: Loose, path: string): ConfigIssue[] {
  const schedule = asText(item.schedule);
  const problem = schedule === undefined ? null : describeCronError(schedule);
  return problem ? [{ path: `${path}.schedule`, message: problem }] : [];
}

function checkHasDestination(item: Loose, path: string, kind: string): ConfigIssue[] {
  if (DESTINATION_KINDS.some((kind) => item[kind] != null)) return [];
  return [
    {
      path,
      message: `this ${kind} has no destination — add slack: { channel: C0123ABCD } or email: { to: [team@example.com] }`,
    },
  ];
}
