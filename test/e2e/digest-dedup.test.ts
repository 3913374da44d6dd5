import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { createApiClient } from "../../src/create-deps.js";
import { createRequestCache } from "../../src/insights/collect-insights.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { silentLogger } from "../../src/logger.js";
import { buildDigestReport } from "../../src/pipeline/digest/report-stage.js";
import type { AvailableProject, Report } from "../../src/report/types.js";
import { API_KEY, apiEnv, apiSection, IDS, TODAY, tempDir, writeConfig } from "./e2e-setup.js";

/**
 * Digests and teams asking for the same insights in one run share one request: counted in the
 * emulator's request log, through the real client over HTTP.
 */

let emulator: RunningEmulator;
let dirs: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  emulator = await startEmulator({ today: TODAY, key: API_KEY });
  dirs = await tempDir();
});

afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

describe("one run's request cache", () => {
  it("asks the API once per distinct project, filters, zone and dates across digests and teams", async () => {
    const daily = (name: string, extra: Record<string, unknown> = {}) => ({
      name,
      schedule: "0 9 * * 1-5",
      period: "previous_day",
      slack: { channel: "C0123ABCD" },
      ...extra,
    });
    const path = await writeConfig(
      dirs.dir,
      {
        api: apiSection(),
        teams: [
          {
            name: "alpha",
            timezone: "Europe/Berlin",
            projects: [{ id: IDS.webE2e, branch: "main" }, { id: IDS.checkoutApi }],
            digests: [
              daily("daily"),
              daily("daily-vs-last-week", { compare_to: "same_period_last_week" }),
            ],
          },
          {
            name: "beta",
            timezone: "Europe/Berlin",
            projects: [
              { id: IDS.webE2e, branch: "main" },
              { id: IDS.checkoutApi, tags: ["smoke", "regression"] },
              { id: IDS.search },
            ],
            digests: [daily("daily")],
          },
          {
            name: "gamma",
            timezone: "America/New_York",
            projects: [{ id: IDS.webE2e, branch: "main" }],
            digests: [daily("daily")],
          },
          {
            // The same filters as beta's, written in another order: the same requests.
            name: "delta",
            timezone: "Europe/Berlin",
            projects: [{ id: IDS.checkoutApi, tags: ["regression", "smoke"] }],
            digests: [daily("daily")],
          },
        ],
      },
      "dedup.yaml",
    );
    const config = loadConfig(path, { env: apiEnv(emulator.url), requireCredentials: false });
    const api = createApiClient(config);
    const cache = createRequestCache();
    const before = emulator.requestLog.length;
    // 09:00 in Berlin, 03:00 in New York: both report Nov 17.
    const fireAt = new Date("2026-11-18T08:00:00Z");
    let reports: Report[];
    try {
      reports = await Promise.all(
        config.teams.flatMap((team) =>
          team.digests.map(async (digest) => {
            const { report } = await buildDigestReport(
              { team, digest, fireAt },
              { api, cache, logger: silentLogger() },
            );
            return report;
          }),
        ),
      );
    } finally {
      await api.close();
    }
    const log = emulator.requestLog.slice(before);
    const insights = log.filter((r) => r.path.endsWith("/insights"));
    const distinct = new Map<string, number>();
    for (const r of insights) {
      const id = r.path.split("/").at(-2);
      const k = [
        id,
        r.query.start_date,
        r.query.end_date,
        r.query.timezone,
        r.query.branch ?? "",
        (r.query.tags ?? "").split(",").sort().join(","),
      ].join("|");
      distinct.set(k, (distinct.get(k) ?? 0) + 1);
    }
    // alpha/daily: 2 projects, Nov 16–17 in one request each (the day and the day before) = 2;
    // alpha/daily-vs-last-week takes Nov 17 from those and adds Nov 10 for both = 2; beta adds
    // checkout-api#smoke,regression and search, Nov 16–17 each = 2 (web-e2e#main is shared);
    // gamma's New York days are another = 1; delta's are all beta's. 7 in all, not the 18
    // asked for (nor the 12 of one request a day).
    expect(insights).toHaveLength(7);
    expect([...distinct.values()].every((n) => n === 1)).toBe(true);
    expect(distinct.size).toBe(7);
    expect(log.filter((r) => r.path.endsWith("/projects"))).toHaveLength(1);

    // The shared answers are the same figures in both teams' digests.
    const webIn = (r: Report | undefined) =>
      r?.projects.find((p) => p.projectId === IDS.webE2e) as AvailableProject;
    expect(webIn(reports[2]).current).toEqual(webIn(reports[0]).current);
  });
});
