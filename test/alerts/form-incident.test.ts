import { describe, expect, it } from "vitest";
import { formIncident, type IncidentFire } from "../../src/alerts/form-incident.js";

// Issue 38 item 3: the fires of one evaluation tick form an incident once they span at least
// `min_projects` projects, across every team and alert, and the incident says what moved together.

function fire(team: string, scope: string, over: Partial<IncidentFire> = {}): IncidentFire {
  return {
    team,
    alert: "flaky-rate",
    metric: "flaky_rate",
    scope,
    name: scope.toUpperCase(),
    value: 12.5,
    fireKey: `${team}.alert.flaky-rate.2026-11-15`,
    ...over,
  };
}

describe("formIncident", () => {
  it("forms none below min_projects", () => {
    expect(formIncident([fire("checkout", "web"), fire("design", "app")], 3)).toBeNull();
  });

  it("forms none from nothing", () => {
    expect(formIncident([], 3)).toBeNull();
  });

  it("counts a project once however many alerts fired on it", () => {
    const runs = { alert: "runs", metric: "runs" as const, value: 3 };
    const fires = [fire("checkout", "web"), fire("checkout", "web", runs), fire("design", "app")];
    expect(formIncident(fires, 3)).toBeNull();
  });

  it("leaves team-wide fires out: they are no project", () => {
    const fires = [fire("checkout", "web"), fire("checkout", "team"), fire("design", "app")];
    expect(formIncident(fires, 3)).toBeNull();
  });

  it("3 projects in 2 teams: one incident whose summary says what moved, in words", () => {
    const runs = { alert: "runs", metric: "runs" as const, value: 3 };
    const incident = formIncident(
      [fire("design", "app", runs), fire("checkout", "web"), fire("checkout", "api")],
      3,
    );
    expect(incident).toEqual({
      projects: 3,
      teams: ["checkout", "design"],
      summary: "3 projects in 2 teams: flaky rate up, runs down — likely shared CI",
      // Members in a stable order: team, alert, project.
      members: [fire("checkout", "api"), fire("checkout", "web"), fire("design", "app", runs)],
    });
  });

  it("in one team the summary names it and guesses no shared CI", () => {
    const incident = formIncident(
      [fire("checkout", "web"), fire("checkout", "api"), fire("checkout", "pay")],
      3,
    );
    expect(incident?.summary).toBe("3 projects in checkout: flaky rate up");
  });
});
