import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthError,
  InvalidRangeError,
  LookbackError,
  MalformedResponseError,
  ProjectNotFoundError,
  ReporterError,
  UnknownTimezoneError,
  UpstreamError,
} from "../../src/errors.js";
import type { EmulatorRun, RunningEmulator } from "../../src/insights/emulator/start-emulator.js";
import { startEmulator } from "../../src/insights/emulator/start-emulator.js";
import type { ProjectFilters } from "../../src/insights/types.js";
import { Secret } from "../../src/secret.js";
import { query, rejection, TEST_KEY, testClient } from "./client-builders.js";

const TODAY = "2026-11-16";
const NOW = Date.parse("2026-11-16T10:00:00Z");

let emulator: RunningEmulator;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    today: TODAY,
    now: () => new Date(NOW),
    key: TEST_KEY,
    projects: 6,
  });
  closers.push(() => emulator.close());
});

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A client of the shared emulator; sleeps are recorded, not waited. */
function client(overrides: Parameters<typeof testClient>[1] = {}, url = emulator.url) {
  const made = testClient(url, { now: () => NOW, ...overrides });
  closers.push(() => made.client.close());
  return made;
}

function project(index: number) {
  const found = emulator.projects[index];
  if (!found) throw new Error(`no emulator project ${index}`);
  return found;
}

/** The log entries of requests made since `mark`. */
function logSince(mark: number) {
  return emulator.requestLog.slice(mark);
}

/** Run counts per UTC day, recomputed from the emulator's raw runs. */
function expectedRuns(runs: readonly EmulatorRun[], day: string, filters: ProjectFilters) {
  const matching = runs.filter(
    (r) =>
      r.startedAt.startsWith(day) &&
      (filters.branch === null || r.branch === filters.branch) &&
      (filters.author === null || r.author === filters.author) &&
      filters.tags.every((t) => r.tags.includes(t)),
  );
  return {
    passed: matching.filter((r) => r.status === "passed").length,
    failed: matching.filter((r) => r.status === "failed").length,
    flaky: matching.reduce((sum, r) => sum + r.tests.flaky, 0),
  };
}

describe("insights rules, over real HTTP", () => {
  it("returns every day of the range, in order, with the emulator's own counts", async () => {
    const { client: api } = client();
    const p = project(0);
    const insights = await api.getInsights(
      p.id,
      query({ startDate: "2026-11-01", endDate: "2026-11-14", timezone: "Etc/UTC" }),
    );
    expect(insights.days).toHaveLength(14);
    expect(insights.days[0]?.date).toBe("2026-11-01");
    expect(insights.days[13]?.date).toBe("2026-11-14");
    const filters = { branch: null, author: null, tags: [] };
    for (const day of insights.days) {
      const expected = expectedRuns(p.runs, day.date, filters);
      expect({
        date: day.date,
        passed: day.runs?.passed ?? 0,
        failed: day.runs?.failed ?? 0,
      }).toEqual({
        date: day.date,
        passed: expected.passed,
        failed: expected.failed,
      });
    }
    const passed = insights.days.reduce((sum, d) => sum + (d.runs?.passed ?? 0), 0);
    expect(insights.overall.runs.passed).toBe(passed);
  });

  it("maps days without data to explicit empty days (the project with no runs)", async () => {
    const { client: api } = client();
    const insights = await api.getInsights(
      project(5).id,
      query({ startDate: "2026-11-10", endDate: "2026-11-12" }),
    );
    expect(insights.days).toEqual([
      { date: "2026-11-10", runs: null, tests: null },
      { date: "2026-11-11", runs: null, tests: null },
      { date: "2026-11-12", runs: null, tests: null },
    ]);
    expect(insights.overall.runs).toEqual({ passed: 0, failed: 0, meanDurationMs: null });
  });

  it("reports the end date clamped to today when asked for the future", async () => {
    const { client: api } = client();
    const insights = await api.getInsights(
      project(0).id,
      query({ startDate: "2026-11-10", endDate: "2026-12-31" }),
    );
    expect(insights.endDate).toBe(TODAY);
    expect(insights.days.map((d) => d.date).at(-1)).toBe(TODAY);
    expect(insights.days).toHaveLength(7);
  });

  it("always sends the timezone, and the days follow it", async () => {
    const mark = emulator.requestLog.length;
    const { client: api } = client();
    const insights = await api.getInsights(
      project(0).id,
      query({ startDate: "2026-11-02", endDate: "2026-11-03", timezone: "Pacific/Auckland" }),
    );
    expect(logSince(mark)[0]?.query.timezone).toBe("Pacific/Auckland");
    expect(insights.timezone).toBe("Pacific/Auckland");
    expect(insights.days.map((d) => d.date)).toEqual(["2026-11-02", "2026-11-03"]);
  });

  it("refuses a start older than the 3-month lookback with LookbackError and the earliest date", async () => {
    const { client: api, sleeps } = client();
    const error = await rejection(
      api.getInsights(project(0).id, query({ startDate: "2026-08-01", endDate: "2026-08-31" })),
    );
    expect(error).toBeInstanceOf(LookbackError);
    expect((error as LookbackError).earliestDate).toBe("2026-08-16");
    expect(sleeps).toEqual([]);
  });

  it("maps a start after the end to InvalidRangeError", async () => {
    const { client: api } = client();
    const error = await rejection(
      api.getInsights(project(0).id, query({ startDate: "2026-11-10", endDate: "2026-11-01" })),
    );
    expect(error).toBeInstanceOf(InvalidRangeError);
  });

  it("maps an unknown zone to UnknownTimezoneError naming it", async () => {
    const { client: api } = client();
    const error = await rejection(
      api.getInsights(project(0).id, query({ timezone: "Europe/Atlantis" })),
    );
    expect(error).toBeInstanceOf(UnknownTimezoneError);
    expect(error.message).toContain('"Europe/Atlantis"');
  });

  it("maps a refused key to AuthError, and the key header was sent", async () => {
    const mark = emulator.requestLog.length;
    const wrong = client({ key: new Secret("not-the-key") });
    const error = await rejection(wrong.client.getInsights(project(0).id, query()));
    expect(error).toBeInstanceOf(AuthError);
    expect(logSince(mark)).toMatchObject([{ status: 401, hadKey: true }]);
  });

  it("maps an unknown project to ProjectNotFoundError", async () => {
    const { client: api } = client();
    const error = await rejection(api.getInsights("zzzzzzz", query()));
    expect(error).toBeInstanceOf(ProjectNotFoundError);
    expect(error.message).toContain('"zzzzzzz"');
  });

  it("passes branch, author and tags (one comma-separated value) and gets the filtered counts", async () => {
    const p = project(0);
    const sample = p.runs.find((r) => r.startedAt >= "2026-11-01" && r.tags.length >= 2);
    if (!sample) throw new Error("the emulator data has no run with two tags");
    const filters = { branch: sample.branch, author: sample.author, tags: sample.tags.slice(0, 2) };
    const mark = emulator.requestLog.length;
    const { client: api } = client();
    const insights = await api.getInsights(
      p.id,
      query({ startDate: "2026-11-01", endDate: "2026-11-14", timezone: "Etc/UTC", ...filters }),
    );
    expect(logSince(mark)[0]?.query).toMatchObject({
      branch: sample.branch,
      author: sample.author,
      tags: filters.tags.join(","),
    });
    const expected = insights.days.reduce(
      (sum, d) =>
        sum +
        expectedRuns(p.runs, d.date, filters).passed +
        expectedRuns(p.runs, d.date, filters).failed,
      0,
    );
    expect(expected).toBeGreaterThan(0);
    expect(insights.overall.runs.passed + insights.overall.runs.failed).toBe(expected);
  });
});

describe("listProjects over real HTTP", () => {
  it("reads every page of more than 100 projects, 100 at a time", async () => {
    const many = await startEmulator({ today: TODAY, key: TEST_KEY, projects: 250 });
    closers.push(() => many.close());
    const { client: api } = client({}, many.url);
    const projects = await api.listProjects();
    expect(projects.map((p) => p.id)).toEqual(many.projects.map((p) => p.id));
    expect(projects[4]?.name).toBe("Billing & Invoices");
    expect(many.requestLog.map((r) => [r.query.page_number, r.query.page_size])).toEqual([
      ["1", "100"],
      ["2", "100"],
      ["3", "100"],
    ]);
  });
});

describe("every fault kind", () => {
  const range = query({ startDate: "2026-11-01", endDate: "2026-11-07" });

  it("waits the 429's Retry-After seconds, then succeeds", async () => {
    emulator.queueFaults(["429:retry-after=7"]);
    const { client: api, sleeps } = client();
    await api.getInsights(project(0).id, range);
    expect(sleeps).toEqual([7000]);
  });

  it("waits until the 429's Retry-After HTTP-date by the injected clock", async () => {
    emulator.queueFaults(["429:retry-after=date+3"]);
    const { client: api, sleeps } = client();
    await api.getInsights(project(0).id, range);
    expect(sleeps).toEqual([3000]);
  });

  it.each(["500", "502", "503", "504", "reset"])(
    "retries %s with backoff, then succeeds",
    async (kind) => {
      emulator.queueFaults([kind, kind]);
      const { client: api, sleeps, requests } = client();
      const insights = await api.getInsights(project(0).id, range);
      expect(insights.days).toHaveLength(7);
      expect(sleeps).toEqual([250, 500]);
      expect(requests.map((r) => r.attempt)).toEqual([1, 2, 3]);
    },
  );

  it("times out a slow answer and succeeds on the next attempt", async () => {
    emulator.queueFaults(["slow:ms=1000"]);
    const { client: api, requests } = client({ timeoutMs: 200 });
    await api.getInsights(project(0).id, range);
    expect(requests.map((r) => r.status)).toEqual(["error", 200]);
  });

  it("gives up after maxAttempts of 503 with UpstreamError", async () => {
    emulator.queueFaults(Array.from({ length: 6 }, () => "503"));
    const { client: api, sleeps } = client();
    const error = await rejection(api.getInsights(project(0).id, range));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).context).toMatchObject({ status: 503, attempts: 6 });
    expect(sleeps).toHaveLength(5);
  });

  it("maps a truncated JSON body to MalformedResponseError", async () => {
    emulator.queueFaults(["malformed-json"]);
    const api = client({ maxAttempts: 1 }).client;
    const error = await rejection(api.getInsights(project(0).id, range));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain("not JSON");
  });

  it("maps a wrong-shaped insights body to MalformedResponseError naming the field", async () => {
    emulator.queueFaults(["malformed-shape"]);
    const api = client({ maxAttempts: 1 }).client;
    const error = await rejection(api.getInsights(project(0).id, range));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain("tests.overall_data.flaky_tests_count: expected number");
  });

  it("maps `malformed` (truncated, then wrong-shaped) project lists to MalformedResponseError", async () => {
    emulator.queueFaults(["malformed", "malformed"]);
    const api = client({ maxAttempts: 1 }).client;
    const truncated = await rejection(api.listProjects());
    const misshapen = await rejection(api.listProjects());
    expect(truncated).toBeInstanceOf(MalformedResponseError);
    expect(truncated.message).toContain("not JSON");
    expect(misshapen).toBeInstanceOf(MalformedResponseError);
    expect(misshapen.message).toContain("projects: expected array");
  });
});

describe("concurrency", () => {
  it("keeps at most `concurrency` requests in flight across calls", async () => {
    const slow = await startEmulator({ today: TODAY, key: TEST_KEY, latencyMs: 40 });
    closers.push(() => slow.close());
    const { client: api } = client({ concurrency: 2 }, slow.url);
    let max = 0;
    // Pending requests are those the emulator has logged but not answered yet.
    const sampler = setInterval(() => {
      max = Math.max(max, slow.requestLog.filter((r) => r.status === 0).length);
    }, 5);
    try {
      await Promise.all([
        ...slow.projects.map((p) =>
          api.getInsights(p.id, query({ startDate: "2026-11-01", endDate: "2026-11-07" })),
        ),
        api.listProjects(),
        api.getInsights(project(0).id, query({ startDate: "2026-11-08", endDate: "2026-11-14" })),
      ]);
    } finally {
      clearInterval(sampler);
    }
    expect(slow.requestLog).toHaveLength(8);
    expect(max).toBe(2);
  });
});

describe("redaction, against the emulator", () => {
  const range = query({ startDate: "2026-11-01", endDate: "2026-11-07" });
  const paths: [string, () => Promise<unknown>][] = [
    [
      "401",
      () => client({ key: new Secret(`${TEST_KEY}-old`) }).client.getInsights(project(0).id, range),
    ],
    [
      "lookback",
      () => client().client.getInsights(project(0).id, query({ startDate: "2026-01-01" })),
    ],
    [
      "invalid range",
      () => client().client.getInsights(project(0).id, query({ startDate: "2026-11-09" })),
    ],
    [
      "bad timezone",
      () => client().client.getInsights(project(0).id, query({ timezone: "Mars/Olympus" })),
    ],
    ["unknown project", () => client().client.getInsights("zzzzzzz", range)],
    ["5xx exhaustion", () => faulted(["500", "502"], { maxAttempts: 2 })],
    ["reset", () => faulted(["reset", "reset"], { maxAttempts: 2 })],
    ["timeout", () => faulted(["slow:ms=1000"], { maxAttempts: 1, timeoutMs: 100 })],
    ["malformed JSON", () => faulted(["malformed-json"], { maxAttempts: 1 })],
    ["malformed shape", () => faulted(["malformed-shape"], { maxAttempts: 1 })],
  ];

  function faulted(kinds: string[], overrides: Parameters<typeof testClient>[1] = {}) {
    emulator.queueFaults(kinds);
    return client(overrides).client.getInsights(project(0).id, range);
  }

  it.each(paths)("%s", async (_name, run) => {
    const error = await rejection(run());
    expect(error).toBeInstanceOf(ReporterError);
    const context = (error as ReporterError).context;
    for (const text of [
      String(error),
      error.message,
      error.stack ?? "",
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      JSON.stringify(context),
    ]) {
      expect(text).not.toContain(TEST_KEY);
    }
    expect(emulator.requestLog.at(-1)?.hadKey).toBe(true);
  });

  it("util.inspect and String of the client show no key", () => {
    const { client: api } = client();
    expect(inspect(api, { depth: 10, showHidden: true })).not.toContain(TEST_KEY);
    expect(String(api)).not.toContain(TEST_KEY);
  });
});
