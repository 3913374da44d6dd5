import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { createClients } from "../../src/create-deps.js";
import { AuthError, UpstreamError } from "../../src/errors.js";
import { createRequestCache } from "../../src/insights/collect-insights.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { silentLogger } from "../../src/logger.js";
import type { DigestOutcome } from "../../src/pipeline/digest/digest-types.js";
import { runDigest } from "../../src/pipeline/digest/run-digest.js";
import type { AvailableProject } from "../../src/report/types.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import {
  API_KEY,
  apiEnv,
  apiSection,
  EARLIEST,
  IDS,
  TODAY,
  tempDir,
  writeConfig,
} from "./e2e-setup.js";
import { countRuns, flakyRate, percent, pool, runsIn } from "./raw-figures.js";

/**
 * What a digest does when part of the world is wrong: a project the API does not know, a
 * refused key, a prior period beyond the API's 3-month lookback. Run through `runDigest` with
 * the real clients `create-deps` builds, over HTTP to the emulator and a fake Slack.
 */

let emulator: RunningEmulator;
let slack: FakeSlack;
let dirs: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  emulator = await startEmulator({ today: TODAY, key: API_KEY });
  dirs = await tempDir();
});

afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack.close();
});
afterEach(() => {
  slack.posts.length = 0;
});

const GHOST = "zzghost";

function teamDoc(digest: Record<string, unknown>, projects: Record<string, unknown>[]) {
  return {
    api: apiSection({ max_attempts: 1 }),
    slack: { token: "${SLACK_BOT_TOKEN}", api_url: "${SLACK_API_URL}" },
    teams: [
      {
        name: "checkout",
        title: "Checkout squad",
        timezone: "Europe/Berlin",
        projects,
        digests: [{ schedule: "0 9 * * 1-5", slack: { channel: "C0123ABCD" }, ...digest }],
      },
    ],
  };
}

async function runWith(doc: unknown, fireAt: Date, key = API_KEY): Promise<DigestOutcome> {
  const path = await writeConfig(dirs.dir, doc, `failures-${Math.random()}.yaml`);
  const config = loadConfig(path, {
    env: {
      ...apiEnv(emulator.url, key),
      SLACK_BOT_TOKEN: FAKE_SLACK_TOKEN,
      SLACK_API_URL: slack.url,
    },
  });
  const [team] = config.teams;
  const digest = team?.digests[0];
  if (!team || !digest) throw new Error("config lost its digest");
  const logger = silentLogger();
  const clients = createClients(config, { logger });
  try {
    return await runDigest(
      { team, digest, fireAt },
      {
        api: clients.api,
        ...clients.digests,
        ledger: null,
        cache: createRequestCache(),
        logger,
        chartPainter: clients.chartPainter,
      },
    );
  } finally {
    await clients.close();
  }
}

function mainPostText(): string {
  const main = slack.posts.find((p) => p.thread_ts === null);
  expect(main).toBeDefined();
  return JSON.stringify(main?.blocks);
}

describe("one project the API does not know", () => {
  it("still delivers the digest, names the project as not fetched (no operator advice in the channel), and leaves it out of the total", async () => {
    const fireAt = new Date("2026-11-18T08:00:00Z"); // 09:00 Berlin: Nov 17
    const outcome = await runWith(
      teamDoc({ name: "daily", period: "previous_day" }, [
        { id: IDS.webE2e },
        { id: GHOST, name: "Ghost project" },
        { id: IDS.search },
      ]),
      fireAt,
    );
    expect(outcome.deliveries.map((d) => [d.id, d.status])).toEqual([["slack:C0123ABCD", "sent"]]);

    const ghost = outcome.report.projects.find((p) => p.projectId === GHOST);
    expect(ghost).toMatchObject({
      status: "unavailable",
      reason: { code: "PROJECT_NOT_FOUND" },
    });
    expect(outcome.report.total.excluded).toEqual(["Ghost project"]);

    const day = { start: "2026-11-17", end: "2026-11-17" };
    const others = [IDS.webE2e, IDS.search].map((id) =>
      countRuns(
        runsIn(emulator.projects.find((p) => p.id === id)?.runs ?? [], day, "Europe/Berlin"),
      ),
    );
    const pooled = pool(others);
    expect(outcome.report.total.current.runs).toBe(pooled.runs);
    expect(outcome.report.total.current.testsFlaky).toBe(pooled.testsFlaky);

    const posted = mainPostText();
    expect(posted).toContain("Ghost project");
    expect(posted).toContain(
      `*Ghost project* (${GHOST}) could not be fetched \u2014 the team figures leave it out`,
    );
    expect(posted).not.toContain("was not found in this workspace");
    expect(posted).toContain("Totals leave out 1 unavailable project");
    const text = slack.posts.find((p) => p.thread_ts === null)?.text ?? "";
    expect(text).toContain(`flaky rate ${percent(flakyRate(pooled))}`);
    expect(text).toContain(`Ghost project (${GHOST}) could not be fetched`);
  });
});

describe("no project of the team could be fetched", () => {
  it("fails the run, naming why, and posts nothing rather than a digest of blanks", async () => {
    const run = runWith(
      teamDoc({ name: "daily", period: "previous_day" }, [
        { id: GHOST, name: "Ghost project" },
        { id: "zzother" },
      ]),
      new Date("2026-11-18T08:00:00Z"),
    );
    await expect(run).rejects.toBeInstanceOf(UpstreamError);
    await expect(run).rejects.toThrow(
      /^checkout\.daily\.2026-11-17: none of the team's 2 projects could be fetched — project "zzghost" was not found in this workspace.*; project "zzother" was not found/,
    );
    expect(slack.posts).toEqual([]);
  });
});

describe("a project list the API cannot serve", () => {
  it("names projects by their id and still delivers the digest", async () => {
    emulator.queueFaults(["503"]); // the first request of a run is the project list
    const before = emulator.requestLog.length;
    // One request at a time, so the list, asked first, is also the first to arrive: with more,
    // the insights requests that go out beside it could reach the emulator before it.
    const doc = teamDoc({ name: "daily", period: "previous_day" }, [{ id: IDS.webE2e }]);
    const outcome = await runWith(
      { ...doc, api: apiSection({ max_attempts: 1, concurrency: 1 }) },
      new Date("2026-11-18T08:00:00Z"),
    );
    expect(outcome.report.projects.map((p) => [p.projectId, p.name])).toEqual([
      [IDS.webE2e, IDS.webE2e],
    ]);
    expect(outcome.deliveries.map((d) => d.status)).toEqual(["sent"]);
    const [list] = emulator.requestLog.slice(before);
    expect(list).toMatchObject({ path: expect.stringMatching(/\/projects$/), status: 503 });
  });
});

describe("a refused API key", () => {
  it("fails the whole run with the AuthError message and posts nothing", async () => {
    const run = runWith(
      teamDoc({ name: "daily", period: "previous_day" }, [{ id: IDS.webE2e }, { id: IDS.search }]),
      new Date("2026-11-18T08:00:00Z"),
      "not-the-key",
    );
    await expect(run).rejects.toBeInstanceOf(AuthError);
    await expect(run).rejects.toThrow(/API key was refused .* INSIGHTS_API_KEY/);
    await expect(run).rejects.not.toThrow(/not-the-key/);
    expect(slack.posts).toEqual([]);
  });

  it("fails the whole run when the insights requests themselves are refused (no project list asked)", async () => {
    const before = emulator.requestLog.length;
    const run = runWith(
      teamDoc({ name: "daily", period: "previous_day" }, [
        { id: IDS.webE2e, name: "Web E2E" },
        { id: IDS.search, name: "Search" },
      ]),
      new Date("2026-11-18T08:00:00Z"),
      "not-the-key",
    );
    await expect(run).rejects.toBeInstanceOf(AuthError);
    const asked = emulator.requestLog.slice(before).map((r) => r.path);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((path) => path.endsWith("/insights"))).toBe(true);
    expect(slack.posts).toEqual([]);
  });
});

describe("a prior period beyond the API's 3-month lookback", () => {
  it.each([
    // Fired Oct 1: September against August, which starts before the earliest day allowed.
    ["previous_month", "2026-10-01T07:00:00Z", "2026-09-01", "2026-09-30"],
    // Fired Sep 20: Aug 23 – Sep 19 against Jul 26 – Aug 22.
    ["last_28_days", "2026-09-20T07:00:00Z", "2026-08-23", "2026-09-19"],
  ])(
    "a %s digest still goes out and says the prior period is not available, with the earliest date",
    async (period, at, start, end) => {
      const outcome = await runWith(
        teamDoc({ name: "lookback", period }, [{ id: IDS.webE2e }, { id: IDS.checkoutApi }]),
        new Date(at),
      );
      expect(outcome.report.periods.current).toEqual({ start, end });
      expect(outcome.report.periods.prior.start < EARLIEST).toBe(true);
      expect(outcome.deliveries[0]?.status).toBe("sent");

      const note = `prior period not available: insights go back to ${EARLIEST}`;
      expect(outcome.report.total.priorNote).toBe(note);
      expect(outcome.report.total.deltas.flakyRate).toMatchObject({ kind: "unavailable" });
      for (const p of outcome.report.projects) {
        expect((p as AvailableProject).current.runs).toBeGreaterThan(0);
        expect((p as AvailableProject).prior).toBeNull();
      }
      expect(mainPostText()).toContain(note);
      expect(slack.posts.find((p) => p.thread_ts === null)?.text).toMatch(/flaky rate \d+\.\d%/);
    },
  );
});
