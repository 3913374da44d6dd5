import type { ConfigIssue } from "../errors.js";
import { describeCronError } from "../schedule/cron-expression.js";
import { describeZoneProblem } from "./describe-zone-problem.js";
import { asNumber, asRecords, asText, type Loose } from "./loose-access.js";

/** Periods longer than a week, which cannot be compared with "the same period last week". */
const LONGER_THAN_A_WEEK = new Set(["previous_month", "last_28_days"]);

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
    const period = asText(digest.period) ?? "previous_day";
    if (digest.compare_to === "same_period_last_week" && LONGER_THAN_A_WEEK.has(period)) {
      issues.push({
        path: `${path}.compare_to`,
        message: `same_period_last_week needs a period of at most 7 days, but ${period} is longer — use compare_to: previous_period`,
      });
    }
  }
  for (const [i, alert] of alerts) {
    const path = `${at}.alerts[${i}]`;
    issues.push(...checkSchedule(alert, path), ...checkHasDestination(alert, path, "alert"));
    issues.push(...checkThresholds(alert, path));
  }
  return issues;
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
  if (item.slack != null || item.email != null) return [];
  return [
    {
      path,
      message: `this ${kind} has no destination — add slack: { channel: C0123ABCD } or email: { to: [team@example.com] }`,
    },
  ];
}

function checkThresholds(alert: Loose, path: string): ConfigIssue[] {
  const warn = asNumber(alert.warn_at);
  const critical = asNumber(alert.critical_at);
  const clear = asNumber(alert.clear_below);
  const order = "thresholds must satisfy clear_below < warn_at ≤ critical_at";
  const issues: ConfigIssue[] = [];
  if (clear !== undefined && warn !== undefined && clear >= warn) {
    issues.push({
      path: `${path}.clear_below`,
      message: `${clear} must be below warn_at (${warn}): a firing alert resolves only below clear_below — ${order}`,
    });
  }
  if (warn !== undefined && critical !== undefined && warn > critical) {
    issues.push({
      path: `${path}.warn_at`,
      message: `${warn} must not exceed critical_at (${critical}) — ${order}`,
    });
  }
  return issues;
}
