import { describe, expect, it } from "vitest";
import type { Team } from "../../src/config/types.js";
import { alertRows, firingAlertsOf } from "../../src/render/alert/digest-alerts.js";
import type { AlertState } from "../../src/state/ledger.js";

const alertConfig = (name: string, metric: Team["alerts"][number]["metric"]) =>
  ({ name, metric, warnAt: 3, criticalAt: 5, clearAt: 2.5 }) as Team["alerts"][number];
const team = {
  name: "t",
  alerts: [alertConfig("flaky", "flaky_rate"), alertConfig("stopped", "runs")],
} as Team;
const state = (
  alert: string,
  scope: string,
  s: AlertState["state"],
  lastValue: number,
): AlertState => ({
  team: "t",
  alert,
  scope,
  state: s,
  since: new Date(0),
  breaches: 1,
  lastValue,
  lastNotifiedAt: null,
  firedAt: null,
  threadKey: null,
  updatedAt: new Date(0),
});

describe("alerts in a digest", () => {
  it("shows firing rate alerts as fractions with the threshold crossed; a team scope has no project", () => {
    expect(
      firingAlertsOf(team, [
        state("flaky", "p1", "critical", 6.2),
        state("flaky", "team", "warn", 3.4),
        state("flaky", "p2", "ok", 1),
        state("stopped", "p3", "critical", 0),
        state("gone-from-config", "p1", "warn", 4),
      ]),
    ).toEqual([
      {
        alert: "flaky",
        severity: "critical",
        value: 0.062,
        threshold: 0.05,
        projectId: "p1",
        metricName: "flaky rate",
        direction: "above",
      },
      {
        alert: "flaky",
        severity: "warn",
        value: 0.034,
        threshold: 0.03,
        projectId: null,
        metricName: "flaky rate",
        direction: "above",
      },
    ]);
  });

  it("lists each scope of an evaluation as a row of the Alerts sheet, with its change", () => {
    const rows = alertRows(team, {
      key: "t.alert.flaky.2026-11-18",
      team: "t",
      alert: "flaky",
      period: { start: "2026-11-18", end: "2026-11-18" },
      results: [
        {
          scope: "p1",
          name: "Web",
          value: 4.2,
          size: 9000,
          verdict: "warn",
          state: "warn",
          transition: "fired",
        },
        {
          scope: "p2",
          name: "API",
          value: null,
          size: 12,
          verdict: "no_data",
          state: "no_data",
          transition: null,
        },
      ],
      notification: null,
      createdAt: new Date(0),
    });
    expect(rows).toEqual([
      {
        alert: "flaky",
        state: "warn",
        projectId: "p1",
        project: "Web",
        value: 0.042,
        threshold: 0.03,
        tests: 9000,
        note: "2026-11-18 · fired",
      },
      {
        alert: "flaky",
        state: "no verdict",
        projectId: "p2",
        project: "API",
        value: null,
        threshold: 0.03,
        tests: 12,
        note: "2026-11-18",
      },
    ]);
  });
});
