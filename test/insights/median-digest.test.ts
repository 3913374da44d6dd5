import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backfillCommand } from "../../src/commands/backfill-command.js";
import { loadConfig } from "../../src/config/load-config.js";
import { createApiClient } from "../../src/create-deps.js";
import { createRequestCache } from "../../src/insights/collect-insights.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { median } from "../../src/insights/median-insights.js";
import { silentLogger } from "../../src/logger.js";
import { buildDigestReport } from "../../src/pipeline/digest/report-stage.js";
import { comparisonLabel } from "../../src/render/comparison-label.js";
import { Secret } from "../../src/secret.js";
import { API_KEY, tempDir, writeConfig } from "../e2e/e2e-setup.js";
import { testClient } from "./client-builders.js";

// A daily digest with compare_to: median_of_4_weeks over the emulator, its store warm: the
// baseline is the median of the last 4 Tuesdays' counts as the API gave them, and the digest
// asks the API only for the recent days, once per project.

const FIRE = new Date("2026-07-22T06:00:00Z"); // Wednesday 08:00 in Berlin: reports Tuesday
const TUESDAYS = ["2026-07-14", "2026-07-07", "2026-06-30", "2026-06-23"];
/** The store is filled the day before the fire, when the four Tuesdays are final. */
let clock = FIRE.getTime() - 86_400_000;
let emulator: RunningEmulator;
let dirs: Awaited<ReturnType<typeof tempDir>>;
let configPath: string;
const now = () => new Date(clock);
/** Each project's baseline as the API gave the four Tuesdays when the store was filled. */
const expected = new Map<string, { runs: number; testsFlaky: number }>();

beforeAll(async () => {
  emulator = await startEmulator({ now, key: API_KEY, projects: 3 });
  dirs = await tempDir();
  configPath = await writeConfig(dirs.dir, {
    api: { url: emulator.url, key: API_KEY },
    state: { path: join(dirs.dir, "ledger.sqlite") },
    teams: [
      {
        name: "checkout",
        timezone: "Europe/Berlin",
        projects: emulator.projects.map((p) => ({ id: p.id })),
        digests: [
          {
            name: "daily",
            schedule: "0 8 * * *",
            period: "previous_day",
            compare_to: "median_of_4_weeks",
            slack: { channel: "C0123ABCD" },
          },
        ],
      },
    ],
  });
  const quiet = { isTTY: false } as NodeJS.WriteStream;
  expect(await backfillCommand({ config: configPath }, () => {}, now, quiet)).toBe(0);
  const { client } = testClient(emulator.url, {
    now: () => now().getTime(),
    key: new Secret(API_KEY),
  });
  for (const project of emulator.projects) {
    const days = await Promise.all(
      TUESDAYS.map((date) =>
        client.getInsights(project.id, {
          startDate: date,
          endDate: date,
          timezone: "Europe/Berlin",
          branch: null,
          author: null,
          tags: [],
        }),
      ),
    );
    const of = (pick: (d: (typeof days)[number]) => number) =>
      Math.round(median(days.map(pick)) ?? 0);
    expected.set(project.id, {
      runs: of((d) => d.overall.runs.passed) + of((d) => d.overall.runs.failed),
      testsFlaky: of((d) => d.overall.tests.flaky),
    });
  }
  await client.close();
});
afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

describe("compare_to: median_of_4_weeks", () => {
  it("compares Tuesday with the median of the last 4 Tuesdays, from the warm store", async () => {
    clock = FIRE.getTime() + 60_000;
    const config = loadConfig(configPath, { env: {}, requireCredentials: false });
    const team = config.teams[0];
    const digest = team?.digests[0];
    if (!team || !digest) throw new Error("the config has no daily digest");
    const api = createApiClient(config, undefined, undefined, () => now().getTime());
    emulator.requestLog.length = 0;
    try {
      const { report } = await buildDigestReport(
        { team, digest, fireAt: FIRE },
        { api, cache: createRequestCache(), logger: silentLogger() },
      );
      expect(comparisonLabel(report.periods)).toBe(
        "vs the median of the last 4 Tuesdays (Jun 23 \u2013 Jul 14, 2026)",
      );
      for (const project of report.projects) {
        if (project.status !== "ok") throw new Error(`${project.projectId} is unavailable`);
        expect({ runs: project.prior?.runs, testsFlaky: project.prior?.testsFlaky }).toEqual(
          expected.get(project.projectId),
        );
      }
      // The team's baseline is its projects' baselines summed, count by count.
      const sum = [...expected.values()].reduce((total, p) => total + p.testsFlaky, 0);
      expect(report.total.prior?.testsFlaky).toBe(sum);
      // The four Tuesdays are in the store: only the recent days are asked, once per project.
      const asked = emulator.requestLog.filter((r) => r.path.endsWith("/insights"));
      expect(asked).toHaveLength(emulator.projects.length);
    } finally {
      await api.close();
    }
  });
});
