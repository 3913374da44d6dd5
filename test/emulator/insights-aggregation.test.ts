import fc from "fast-check";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type EmulatorProject,
  type RunningEmulator,
  startEmulator,
} from "../../src/insights/emulator/start-emulator.js";
import {
  getFromEmulator,
  type WireInsights,
  type WireRunsDay,
  withQuery,
} from "./fetch-emulator.js";
import { recomputeInsights } from "./recompute-insights.js";

const TODAY = "2026-11-16";
let emulator: RunningEmulator;
let busy: EmulatorProject;
let empty: EmulatorProject;

beforeAll(async () => {
  emulator = await startEmulator({ today: TODAY });
  busy = emulator.projects[0] as EmulatorProject;
  empty = emulator.projects.find((p) => p.runs.length === 0) as EmulatorProject;
});
afterAll(() => emulator.close());

interface Query {
  startDate: string;
  endDate: string;
  timezone: string;
  branch?: string;
  author?: string;
  tags?: string[];
}

async function fetchInsights(project: EmulatorProject, q: Query): Promise<WireInsights> {
  const res = await getFromEmulator(
    emulator,
    withQuery(`/projects/${project.id}/insights`, {
      start_date: q.startDate,
      end_date: q.endDate,
      timezone: q.timezone,
      branch: q.branch,
      author: q.author,
      tags: q.tags?.join(","),
    }),
  );
  expect(res.status).toBe(200);
  return res.json();
}

const ZONES = [
  "Etc/UTC",
  "Europe/Berlin",
  "America/Los_Angeles",
  "Asia/Kolkata",
  "Pacific/Kiritimati",
  "Pacific/Pago_Pago",
];

describe("aggregation", () => {
  it("equals an independent recomputation from the raw runs, for any range, zone and filters", async () => {
    const project = busy;
    const branches = [...new Set(project.runs.map((r) => r.branch))];
    const authors = [...new Set(project.runs.map((r) => r.author))];
    const tags = [...new Set(project.runs.flatMap((r) => r.tags))];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 91 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom(...ZONES),
        fc.option(fc.constantFrom(...branches), { nil: undefined }),
        fc.option(fc.constantFrom(...authors), { nil: undefined }),
        fc.subarray(tags, { maxLength: 2 }),
        async (back, span, timezone, branch, author, tagFilter) => {
          const start = DateTime.fromISO(TODAY).minus({ days: back });
          const q: Query = {
            startDate: start.toISODate() ?? "",
            endDate:
              DateTime.min(start.plus({ days: span }), DateTime.fromISO(TODAY)).toISODate() ?? "",
            timezone,
            ...(branch !== undefined && { branch }),
            ...(author !== undefined && { author }),
            ...(tagFilter.length > 0 && { tags: tagFilter }),
          };
          expect(await fetchInsights(project, q)).toEqual(recomputeInsights(project.runs, q));
        },
      ),
      { numRuns: 40, seed: 20261116 },
    );
  });

  it.each([
    ["America/Los_Angeles", "2026-10-30", "2026-11-03"], // 25-hour day on Nov 1
    ["America/Santiago", "2026-09-04", "2026-09-08"], // Sep 6 has no midnight: it starts at 01:00
    ["Asia/Kathmandu", "2026-11-01", "2026-11-05"], // UTC+05:45
  ])("buckets correctly across DST and odd offsets in %s", async (timezone, startDate, endDate) => {
    const q = { startDate, endDate, timezone };
    expect(await fetchInsights(busy, q)).toEqual(recomputeInsights(busy.runs, q));
  });

  it("counts run status into run counts and test results into test counts", async () => {
    const q = { startDate: "2026-11-02", endDate: "2026-11-08", timezone: "Etc/UTC" };
    const body = await fetchInsights(busy, q);
    const week = busy.runs.filter((r) => r.startedAt >= "2026-11-02" && r.startedAt < "2026-11-09");
    expect(body.runs.overall_data.passed_runs_count).toBe(
      week.filter((r) => r.status === "passed").length,
    );
    expect(body.runs.overall_data.failed_runs_count).toBe(
      week.filter((r) => r.status === "failed").length,
    );
    expect(body.tests.overall_data.flaky_tests_count).toBe(
      week.reduce((s, r) => s + r.tests.flaky, 0),
    );
    expect(body.tests.overall_data.passed_tests_count).toBe(
      week.reduce((s, r) => s + r.tests.passed, 0),
    );
  });

  it("sends a day without runs with only its date, and zero totals for a project without runs", async () => {
    const body = await fetchInsights(empty, {
      startDate: "2026-11-01",
      endDate: "2026-11-03",
      timezone: "Etc/UTC",
    });
    expect(body.runs.runs_volume_data).toEqual([
      { date: "Nov  1, 2026" },
      { date: "Nov  2, 2026" },
      { date: "Nov  3, 2026" },
    ]);
    expect(body.tests.tests_volume_data).toEqual(body.runs.runs_volume_data);
    expect(body.runs.overall_data).toEqual({
      passed_runs_count: 0,
      failed_runs_count: 0,
      average_passing_rate: 0,
      average_run_duration: 0,
    });
    expect(body.tests.overall_data.passed_tests_count).toBe(0);
  });

  it("leaves today empty where the local day has not begun before the data ends", async () => {
    // Runs stop at today's UTC midnight; in Pago Pago (UTC−11) today starts at 11:00 UTC.
    const body = await fetchInsights(busy, {
      startDate: "2026-11-15",
      endDate: TODAY,
      timezone: "Pacific/Pago_Pago",
    });
    expect(body.runs.runs_volume_data[1]).toEqual({ date: "Nov 16, 2026" });
    expect(body.runs.runs_volume_data[0]?.passed_runs_count).toBeGreaterThan(0);
  });
});

describe("time zones move runs between days", () => {
  const range = { startDate: "2026-11-02", endDate: "2026-11-08" };

  it("buckets the same range differently in Kiritimati (UTC+14) and Pago Pago (UTC−11)", async () => {
    const east = await fetchInsights(busy, { ...range, timezone: "Pacific/Kiritimati" });
    const west = await fetchInsights(busy, { ...range, timezone: "Pacific/Pago_Pago" });
    const perDay = (body: WireInsights) =>
      body.runs.runs_volume_data.map((d: WireRunsDay) => d.passed_runs_count ?? 0);
    expect(perDay(east)).not.toEqual(perDay(west));
    // The dates are the same labels; only the windows differ, by 25 hours.
    expect(east.runs.runs_volume_data.map((d: WireRunsDay) => d.date)).toEqual(
      west.runs.runs_volume_data.map((d: WireRunsDay) => d.date),
    );
  });

  it("explains the totals: each zone counts exactly the runs inside its own local window", async () => {
    for (const [timezone, from, to] of [
      ["Pacific/Kiritimati", "2026-11-01T10:00:00.000Z", "2026-11-08T10:00:00.000Z"],
      ["Pacific/Pago_Pago", "2026-11-02T11:00:00.000Z", "2026-11-09T11:00:00.000Z"],
    ] as const) {
      const body = await fetchInsights(busy, { ...range, timezone });
      const inside = busy.runs.filter((r) => r.startedAt >= from && r.startedAt < to);
      const total =
        body.runs.overall_data.passed_runs_count + body.runs.overall_data.failed_runs_count;
      expect(total).toBe(inside.length);
    }
  });

  it("counts each local day over its own UTC window: starting 10:00 UTC the day before in Kiritimati, 11:00 UTC in Pago Pago", async () => {
    const windows = { "Pacific/Kiritimati": -14, "Pacific/Pago_Pago": 11 } as const;
    for (const [timezone, offsetHours] of Object.entries(windows)) {
      const body = await fetchInsights(busy, { ...range, timezone });
      const counts = body.runs.runs_volume_data.map(
        (d: WireRunsDay) => (d.passed_runs_count ?? 0) + (d.failed_runs_count ?? 0),
      );
      const expected = [2, 3, 4, 5, 6, 7, 8].map((day) => {
        const from = Date.UTC(2026, 10, day, offsetHours);
        const to = from + 86_400_000;
        return busy.runs.filter(
          (r) => Date.parse(r.startedAt) >= from && Date.parse(r.startedAt) < to,
        ).length;
      });
      expect(counts).toEqual(expected);
    }
  });
});

describe("filters", () => {
  const range = { startDate: "2026-10-20", endDate: "2026-11-15", timezone: "Europe/Berlin" };
  const runsIn = (body: WireInsights) =>
    body.runs.overall_data.passed_runs_count + body.runs.overall_data.failed_runs_count;

  it("counts only runs on the branch, and only by the author", async () => {
    const all = runsIn(await fetchInsights(busy, range));
    const main = runsIn(await fetchInsights(busy, { ...range, branch: "main" }));
    const author = busy.runs[0]?.author ?? "";
    const byAuthor = runsIn(await fetchInsights(busy, { ...range, author }));
    expect(main).toBeGreaterThan(0);
    expect(main).toBeLessThan(all);
    expect(byAuthor).toBeGreaterThan(0);
    expect(byAuthor).toBeLessThan(all);
    expect(runsIn(await fetchInsights(busy, { ...range, branch: "no-such-branch" }))).toBe(0);
  });

  it("requires every listed tag, sent as one comma-separated value", async () => {
    const smoke = runsIn(await fetchInsights(busy, { ...range, tags: ["smoke"] }));
    const both = await fetchInsights(busy, { ...range, tags: ["smoke", "regression"] });
    const expected = busy.runs.filter(
      (r) => r.tags.includes("smoke") && r.tags.includes("regression"),
    );
    expect(runsIn(both)).toBeGreaterThan(0);
    expect(runsIn(both)).toBeLessThan(smoke);
    expect(both).toEqual(recomputeInsights(expected, range));
  });

  it("sends only dates when no run carries the tags", async () => {
    const body = await fetchInsights(busy, { ...range, tags: ["smoke", "no-such-tag"] });
    expect(body.runs.runs_volume_data.every((d: object) => Object.keys(d).length === 1)).toBe(true);
    expect(body.tests.tests_volume_data.every((d: object) => Object.keys(d).length === 1)).toBe(
      true,
    );
  });
});
