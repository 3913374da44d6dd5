import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { getFromEmulator, withQuery } from "./fetch-emulator.js";

const TODAY = "2026-11-16";
let emulator: RunningEmulator;
let projectId: string;

beforeAll(async () => {
  emulator = await startEmulator({ today: TODAY });
  projectId = emulator.projects[0]?.id ?? "";
});
afterAll(() => emulator.close());

const insights = (query: Record<string, string | undefined>, options = {}) =>
  getFromEmulator(emulator, withQuery(`/projects/${projectId}/insights`, query), options);

describe("insights date rules", () => {
  it("defaults to the 30 days ending today, in Etc/UTC", async () => {
    const res = await insights({});
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ start_date: "2026-10-18", end_date: TODAY, timezone: "Etc/UTC" });
    expect(body.runs.runs_volume_data).toHaveLength(30);
    expect(body.tests.tests_volume_data).toHaveLength(30);
  });

  it("derives the start as 29 days before a given end date", async () => {
    const body = (await insights({ end_date: "2026-11-10", timezone: "Europe/Berlin" })).json();
    expect(body).toMatchObject({
      start_date: "2026-10-12",
      end_date: "2026-11-10",
      timezone: "Europe/Berlin",
    });
  });

  it("formats dates as %b %e, %Y with the day space-padded to two characters", async () => {
    const body = (await insights({ start_date: "2026-11-01", end_date: "2026-11-10" })).json();
    const dates = body.runs.runs_volume_data.map((d: { date: string }) => d.date);
    expect(dates[0]).toBe("Nov  1, 2026");
    expect(dates[8]).toBe("Nov  9, 2026");
    expect(dates[9]).toBe("Nov 10, 2026");
    expect(body.tests.tests_volume_data.map((d: { date: string }) => d.date)).toEqual(dates);
  });

  it("clamps a future end date to today and reports the clamped value", async () => {
    const body = (await insights({ start_date: "2026-11-01", end_date: "2027-01-31" })).json();
    expect(body.end_date).toBe(TODAY);
    expect(body.runs.runs_volume_data).toHaveLength(16);
    expect(body.runs.runs_volume_data.at(-1).date).toBe("Nov 16, 2026");
  });

  it("accepts a start exactly 3 calendar months back and refuses the day before, naming the earliest date", async () => {
    expect((await insights({ start_date: "2026-08-16" })).status).toBe(200);
    const refused = await insights({ start_date: "2026-08-15" });
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual({
      error:
        "Insights are available only for the most recent 3 months. Use a date range starting on or after 2026-08-16",
    });
  });

  it("refuses a derived default start that falls outside the lookback", async () => {
    const res = await insights({ end_date: "2026-09-01" });
    expect(res.status).toBe(400);
    expect(res.json().error).toContain("on or after 2026-08-16");
  });

  it.each([
    ["an unparsable start", { start_date: "yesterday" }],
    ["a month 13", { start_date: "2026-13-01" }],
    ["a day that does not exist", { end_date: "2026-02-30" }],
    ["a date with a time", { start_date: "2026-11-01T00:00:00Z" }],
    ["a start after the end", { start_date: "2026-11-10", end_date: "2026-11-09" }],
    ["a start in the future", { start_date: "2026-11-20" }],
  ])("answers 400 Invalid date range format for %s", async (_label, query) => {
    const res = await insights(query);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ error: "Invalid date range format" });
  });

  it("refuses an unknown zone and names it", async () => {
    const res = await insights({ timezone: "Mars/Olympus_Mons" });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      error: "Unrecognized timezone: Mars/Olympus_Mons. Please provide a valid IANA timezone name",
    });
  });
});

describe("insights request checks", () => {
  it.each([
    ["no key", null],
    ["a wrong key", "not-the-key"],
  ])("answers 401 with the fixed text for %s", async (_label, key) => {
    const res = await insights({}, { key });
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ error: "Could not authenticate, invalid API Key" });
  });

  it("answers 404 for an unknown project", async () => {
    const res = await getFromEmulator(emulator, "/projects/zzzzzzz/insights");
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ error: "Project not found" });
  });

  it("answers 404 outside the API prefix", async () => {
    const res = await fetch(`${emulator.url.replace("/api/external/v1", "")}/projects`, {
      headers: { "x-api-key": "demo-key" },
    });
    expect(res.status).toBe(404);
  });

  it.each(["text/html", "application/xml", "text/csv"])(
    "answers 406 to Accept: %s",
    async (accept) => {
      const res = await insights({}, { accept });
      expect(res.status).toBe(406);
      expect(res.json().error).toContain("application/json");
    },
  );

  it.each([
    "application/json",
    "*/*",
    "application/json; charset=utf-8",
    "text/html, application/json;q=0.9",
  ])("serves Accept: %s", async (accept) => {
    const res = await insights({}, { accept });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  it("checks the key before anything else", async () => {
    const res = await getFromEmulator(emulator, "/projects/zzzzzzz/insights?timezone=Nowhere", {
      key: "wrong",
      accept: "text/html",
    });
    expect(res.status).toBe(401);
  });
});

describe("today from the clock", () => {
  it("resolves today per zone from now() when no date is fixed", async () => {
    const clock = await startEmulator({ now: () => new Date("2026-11-16T23:30:00Z") });
    try {
      const id = clock.projects[0]?.id ?? "";
      const endIn = async (timezone: string) =>
        (await getFromEmulator(clock, withQuery(`/projects/${id}/insights`, { timezone }))).json()
          .end_date;
      expect(await endIn("Etc/UTC")).toBe("2026-11-16");
      expect(await endIn("Pacific/Kiritimati")).toBe("2026-11-17");
      expect(await endIn("Pacific/Pago_Pago")).toBe("2026-11-16");
    } finally {
      await clock.close();
    }
  });

  it("measures the lookback in calendar months, clamping at the end of a short month", async () => {
    const may = await startEmulator({ today: "2026-05-31" });
    try {
      const res = await getFromEmulator(
        may,
        `/projects/${may.projects[0]?.id}/insights?start_date=2026-02-27`,
      );
      expect(res.json().error).toContain("on or after 2026-02-28");
    } finally {
      await may.close();
    }
  });
});
