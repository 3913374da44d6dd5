import { describe, expect, it } from "vitest";
import { parseProjectsPage } from "../../src/insights/projects-page-schema.js";
import { parseInsightsBody } from "../../src/insights/response-schema.js";
import { runsDay, type WireBody, wireInsights } from "./wire-insights.js";

function problem(body: unknown): string {
  const parsed = parseInsightsBody(body, "pdqmxlz");
  if (parsed.ok) throw new Error("expected a shape problem");
  return `${parsed.field}: ${parsed.problem}`;
}

describe("parseInsightsBody", () => {
  it("maps the wire format to camelCase days with ISO dates", () => {
    const parsed = parseInsightsBody(wireInsights("2026-10-31", "2026-11-02"), "pdqmxlz");
    expect(parsed).toEqual({
      ok: true,
      value: {
        projectId: "pdqmxlz",
        startDate: "2026-10-31",
        endDate: "2026-11-02",
        timezone: "Europe/Berlin",
        days: ["2026-10-31", "2026-11-01", "2026-11-02"].map((date) => ({
          date,
          runs: { passed: 8, failed: 2, meanDurationMs: 600_000 },
          tests: { passed: 90, failed: 5, skipped: 3, flaky: 4, timedOut: 2 },
        })),
        overall: {
          runs: { passed: 80, failed: 20, meanDurationMs: 612_345 },
          tests: { passed: 900, failed: 50, skipped: 30, flaky: 40, timedOut: 20 },
        },
      },
    });
  });

  it("turns a day with only `date` into an explicit empty day", () => {
    const parsed = parseInsightsBody(wireInsights("2026-11-01", "2026-11-02", ["2026-11-01"]), "p");
    expect(parsed.ok && parsed.value.days[0]).toEqual({
      date: "2026-11-01",
      runs: null,
      tests: null,
    });
    expect(parsed.ok && parsed.value.days[1]?.runs).not.toBeNull();
  });

  it("accepts one space before a single-digit day", () => {
    const body = wireInsights("2026-11-02", "2026-11-02");
    body.runs.runs_volume_data[0] = { ...runsDay("2026-11-02"), date: "Nov 2, 2026" };
    expect(parseInsightsBody(body, "p").ok).toBe(true);
  });

  it("ignores unknown extra fields, since the API may grow", () => {
    const body = { ...wireInsights("2026-11-02", "2026-11-02"), new_thing: { a: 1 } };
    (body.runs.runs_volume_data[0] as Record<string, unknown>).median_duration = 5;
    expect(parseInsightsBody(body, "p").ok).toBe(true);
  });

  it("reads an empty overall object over days without data as zero counts and a null duration", () => {
    const body = wireInsights("2026-11-02", "2026-11-02", ["2026-11-02"]);
    body.runs.overall_data = {};
    body.tests.overall_data = {};
    const parsed = parseInsightsBody(body, "p");
    expect(parsed.ok && parsed.value.overall).toEqual({
      runs: { passed: 0, failed: 0, meanDurationMs: null },
      tests: { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 },
    });
  });

  it.each([
    [
      "empty totals over days that carry runs",
      (b: WireBody) => {
        b.runs.overall_data = {};
      },
      "runs.overall_data.passed_runs_count: missing, although the days carry runs",
    ],
    [
      "half-filled test totals",
      (b: WireBody) => {
        b.tests.overall_data = { flaky_tests_count: 3 };
      },
      "tests.overall_data.passed_tests_count",
    ],
  ])("refuses %s rather than report zeros", (_, edit, field) => {
    const body = wireInsights("2026-11-02", "2026-11-02");
    edit(body);
    const parsed = parseInsightsBody(body, "p");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : `${parsed.field}: ${parsed.problem}`).toContain(field);
  });

  it("gives a null duration to a day whose counts are zero", () => {
    const body = wireInsights("2026-11-02", "2026-11-02");
    body.runs.runs_volume_data[0] = runsDay("2026-11-02", 0, 0, 0);
    const parsed = parseInsightsBody(body, "p");
    expect(parsed.ok && parsed.value.days[0]?.runs).toEqual({
      passed: 0,
      failed: 0,
      meanDurationMs: null,
    });
  });

  const cases: [string, (b: ReturnType<typeof wireInsights>) => unknown, string][] = [
    [
      "a count of the wrong type",
      (b) => {
        (b.runs.runs_volume_data[3] as Record<string, unknown>).passed_runs_count = "12";
        return b;
      },
      "runs.runs_volume_data[3].passed_runs_count: expected number, received string",
    ],
    [
      "a fractional count",
      (b) => {
        (b.tests.tests_volume_data[1] as Record<string, unknown>).flaky_tests_count = 1.5;
        return b;
      },
      "tests.tests_volume_data[1].flaky_tests_count: expected int",
    ],
    [
      "a day with some counts but not all",
      (b) => {
        delete (b.runs.runs_volume_data[2] as Record<string, unknown>).failed_runs_count;
        return b;
      },
      "runs.runs_volume_data[2].failed_runs_count: expected number, missing",
    ],
    [
      "a missing day",
      (b) => {
        b.tests.tests_volume_data.splice(2, 1);
        return b;
      },
      "tests.tests_volume_data: expected 5 days (2026-10-29 to 2026-11-02), got 4",
    ],
    [
      "days out of order",
      (b) => {
        b.runs.runs_volume_data.reverse();
        return b;
      },
      'runs.runs_volume_data[0].date: expected "Oct 29, 2026"',
    ],
    [
      "an unreadable day date",
      (b) => {
        (b.runs.runs_volume_data[4] as Record<string, unknown>).date = "2026-11-02";
        return b;
      },
      'runs.runs_volume_data[4].date: expected a date like "Nov  2, 2026"',
    ],
    [
      "an impossible range",
      (b) => ({ ...b, start_date: "2026-11-05" }),
      "start_date: is after end_date",
    ],
    ["a missing runs object", (b) => ({ ...b, runs: undefined }), "runs: expected object"],
    [
      "a non-ISO start_date",
      (b) => ({ ...b, start_date: "Oct 29, 2026" }),
      "start_date: expected an ISO date",
    ],
    ["an array instead of an object", () => [], "(body): expected object, received array"],
  ];

  it.each(cases)("names the wrong field for %s", (_name, mutate, expected) => {
    expect(problem(mutate(wireInsights("2026-10-29", "2026-11-02")))).toContain(expected);
  });
});

describe("parseProjectsPage", () => {
  it("maps projects and the page count, ignoring extra fields", () => {
    const parsed = parseProjectsPage({
      projects: [{ id: "pdqmxlz", name: "Web E2E", created_at: "x" }, { id: "k2v9q" }],
      pagination: { total_records: 2, current_page_number: 1, total_pages: 1, page_size: 100 },
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        projects: [
          { id: "pdqmxlz", name: "Web E2E" },
          { id: "k2v9q", name: "k2v9q" },
        ],
        totalPages: 1,
      },
    });
  });

  it("tolerates a missing pagination object", () => {
    const parsed = parseProjectsPage({ projects: [] });
    expect(parsed).toEqual({ ok: true, value: { projects: [], totalPages: null } });
  });

  it("names the wrong field", () => {
    const parsed = parseProjectsPage({ projects: [{ id: 7 }] });
    expect(parsed.ok ? "" : `${parsed.field}: ${parsed.problem}`).toBe(
      "projects[0].id: expected string, received number",
    );
  });
});
