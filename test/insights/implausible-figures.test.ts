import { afterEach, describe, expect, it } from "vitest";
import { MalformedResponseError } from "../../src/errors.js";
import { parseInsightsBody } from "../../src/insights/response-schema.js";
import { query, rejection, testClient } from "./client-builders.js";
import { json, startScriptedServer } from "./scripted-server.js";
import { runsDay, testsDay, type WireBody, wireInsights } from "./wire-insights.js";

/**
 * Figures the API cannot mean are refused where they enter, naming the field, rather than
 * rendered: a mean run of 1e300 ms showed as "4.9e+292h 08m", a flaky count above passed as
 * "flaky rate 285.6%".
 */

const WEEK_MS = 7 * 24 * 3_600_000;

type Edit = (body: WireBody) => void;
const overallRuns = (b: WireBody) => b.runs.overall_data;
const overallTests = (b: WireBody) => b.tests.overall_data;
const day = (rows: Record<string, unknown>[], i: number) => rows[i] as Record<string, unknown>;

function check(edit: Edit) {
  const body = wireInsights("2026-10-29", "2026-11-02");
  edit(body);
  const parsed = parseInsightsBody(body, "pdqmxlz");
  return parsed.ok ? "ok" : `${parsed.field}: ${parsed.problem}`;
}

describe("implausible figures are refused, naming the field", () => {
  const cases: [string, Edit, string][] = [
    [
      "a mean run duration of 1e300 ms",
      (b) => {
        overallRuns(b).average_run_duration = 1e300;
      },
      "runs.overall_data.average_run_duration: a mean run of more than 7 days (604800000 ms) is not a real figure",
    ],
    [
      "a day's mean run duration just over a week",
      (b) => {
        day(b.runs.runs_volume_data, 2).average_run_duration = WEEK_MS + 1;
      },
      "runs.runs_volume_data[2].average_run_duration: a mean run of more than 7 days",
    ],
    [
      "an infinite duration (1e400 in the JSON text)",
      (b) => {
        overallRuns(b).average_run_duration = Number.POSITIVE_INFINITY;
      },
      "runs.overall_data.average_run_duration: expected number, received Infinity",
    ],
    [
      "more flaky tests than passed ones in the totals",
      (b) => {
        Object.assign(overallTests(b), { passed_tests_count: 20, flaky_tests_count: 57 });
      },
      "tests.overall_data.flaky_tests_count: 57 is more than passed_tests_count (20), which includes the flaky ones",
    ],
    [
      "more flaky tests than passed ones on a day",
      (b) => {
        day(b.tests.tests_volume_data, 1).flaky_tests_count = 91;
      },
      "tests.tests_volume_data[1].flaky_tests_count: 91 is more than passed_tests_count (90)",
    ],
    [
      "a run pass rate above 100",
      (b) => {
        overallRuns(b).average_passing_rate = 285.6;
      },
      "runs.overall_data.average_passing_rate: expected a percentage from 0 to 100",
    ],
    [
      "a negative flaky percentage on a day",
      (b) => {
        day(b.tests.tests_volume_data, 0).flaky_percentage = -0.5;
      },
      "tests.tests_volume_data[0].flaky_percentage: expected a percentage from 0 to 100",
    ],
    [
      "a flakiness rate above 100 in the totals",
      (b) => {
        overallTests(b).average_flakiness_rate = 100.5;
      },
      "tests.overall_data.average_flakiness_rate: expected a percentage from 0 to 100",
    ],
    [
      "a negative count",
      (b) => {
        overallRuns(b).failed_runs_count = -3;
      },
      "runs.overall_data.failed_runs_count: Too small: expected number to be >=0",
    ],
    [
      "a count too large to be exact",
      (b) => {
        overallTests(b).skipped_tests_count = 1e300;
      },
      "tests.overall_data.skipped_tests_count: Too big: expected int to be <=9007199254740991",
    ],
  ];

  it.each(cases)("%s", (_name, edit, expected) => {
    expect(check(edit)).toContain(expected);
  });
});

describe("figures the API can send are accepted", () => {
  const cases: [string, Edit][] = [
    [
      "a mean run of exactly 7 days",
      (b) => {
        overallRuns(b).average_run_duration = WEEK_MS;
      },
    ],
    [
      "every passed test flaky",
      (b) => {
        Object.assign(overallTests(b), { passed_tests_count: 40, flaky_tests_count: 40 });
      },
    ],
    [
      "rates of exactly 0 and 100",
      (b) => {
        b.runs.runs_volume_data[0] = runsDay("2026-10-29", 5, 0);
        b.tests.tests_volume_data[0] = testsDay("2026-10-29", {
          passed: 10,
          failed: 0,
          skipped: 0,
          flaky: 0,
          timedOut: 0,
        });
      },
    ],
    [
      "null rates, which are never read",
      (b) => {
        overallRuns(b).average_passing_rate = null;
        overallTests(b).average_flakiness_rate = null;
      },
    ],
    [
      "empty totals with zero rates and duration (an empty range)",
      (b) => {
        b.runs.runs_volume_data = b.runs.runs_volume_data.map((d) => ({ date: d.date }));
        b.tests.tests_volume_data = b.tests.tests_volume_data.map((d) => ({ date: d.date }));
        b.runs.overall_data = {
          passed_runs_count: 0,
          failed_runs_count: 0,
          average_passing_rate: 0,
          average_run_duration: 0,
        };
        b.tests.overall_data = {
          passed_tests_count: 0,
          failed_tests_count: 0,
          skipped_tests_count: 0,
          flaky_tests_count: 0,
          timed_out_tests_count: 0,
          average_passing_rate: 0,
          average_flakiness_rate: 0,
        };
      },
    ],
  ];

  it.each(cases)("%s", (_name, edit) => {
    expect(check(edit)).toBe("ok");
  });
});

describe("over HTTP", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("is a MalformedResponseError naming the project and the field", async () => {
    const body = wireInsights("2026-10-29", "2026-11-02");
    Object.assign(body.tests.overall_data, { passed_tests_count: 20, flaky_tests_count: 57 });
    const server = await startScriptedServer(json(200, body));
    cleanups.push(() => server.close());
    const { client } = testClient(server.url, { maxAttempts: 2 });
    cleanups.push(() => client.close());
    const error = await rejection(client.getInsights("pdqmxlz", query()));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain('project "pdqmxlz"');
    expect(error.message).toContain("tests.overall_data.flaky_tests_count: 57 is more than");
    expect((error as MalformedResponseError).context).toMatchObject({
      projectId: "pdqmxlz",
      field: "tests.overall_data.flaky_tests_count",
    });
  });
});
