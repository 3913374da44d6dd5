import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { API_KEY, apiEnv, apiSection, IDS, TODAY, tempDir, writeConfig } from "./e2e-setup.js";
import { requireBuiltCli, runCli } from "./run-cli.js";

/**
 * Issue 37: a weekly digest says which branch moved a change. The emulator's tenth project
 * ("Notifications") has its flaky rise on release-2.3 alone; the digest names it, and the API is
 * asked for each declared slice of both weeks, once, and for nothing else — and a digest without
 * news asks for no slice at all.
 */

const DATA_PIPELINE = "rfqjnhh";
const ATTRIBUTION = {
  branches: ["main", "release-2.3"],
  authors: ["ci-bot", "Oliver Smith"],
  tags: [["smoke"]],
};
const WEEK = { start: "2026-11-09", end: "2026-11-15" };
const PRIOR = { start: "2026-11-02", end: "2026-11-08" };

let dirs: Awaited<ReturnType<typeof tempDir>>;
let emulator: RunningEmulator;
beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
  emulator = await startEmulator({ today: TODAY, key: API_KEY, projects: 12 });
});
afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

async function runWeekly(projects: Record<string, unknown>[], name: string) {
  const path = await writeConfig(
    dirs.dir,
    {
      api: apiSection(),
      state: { path: join(dirs.dir, `${name}.sqlite`) },
      teams: [
        {
          name: "data",
          title: "Data team",
          timezone: "Europe/Berlin",
          projects,
          digests: [
            {
              name: "weekly",
              schedule: "0 8 * * 1",
              period: "previous_week",
              // The requests counted are the periods' and their slices': no chart window.
              charts: false,
              slack: { channel: "C0DATA" },
              webhook: { url: "https://example.invalid/hooks/insights", secret: "s3cret-hook" },
            },
          ],
        },
      ],
    },
    `${name}.yaml`,
  );
  const out = join(dirs.dir, name);
  emulator.requestLog.length = 0;
  const result = await runCli(
    ["run", "--team", "data", "--digest", "weekly", "--at", "2026-11-16T07:00:00Z"].concat([
      "--outbox",
      out,
      "--config",
      path,
    ]),
    { env: apiEnv(emulator.url), cwd: dirs.dir },
  );
  expect(result.code, result.stderr).toBe(0);
  return { out, key: "data.weekly.2026-11-09_2026-11-15", result };
}

/** Each insights request as `filters start..end`, the filter part empty when unfiltered. */
function insightsRequests(): string[] {
  return emulator.requestLog
    .filter((r) => r.path.endsWith("/insights"))
    .map((r) => {
      const filters = ["branch", "author", "tags"]
        .filter((k) => r.query[k])
        .map((k) => `${k}=${r.query[k]}`)
        .join("&");
      return `${filters} ${r.query.start_date}..${r.query.end_date}`;
    });
}

describe("slices of a weekly digest", () => {
  it("names the branch that moved the flaky rate, and asks the API for both weeks of each slice in one request", async () => {
    const { out, key } = await runWeekly(
      [{ id: DATA_PIPELINE, attribution: ATTRIBUTION }],
      "moved",
    );
    const slack = JSON.parse(await readFile(join(out, `${key}.slack.json`), "utf8"));
    expect(slack.text).toMatch(
      /Notifications: flaky rate [\d.]+% → [\d.]+% \(\+[\d.]+ pp, worse\) — on release-2\.3 \([\d.]+% → [\d.]+%\); main unchanged/,
    );

    const requests = insightsRequests();
    const sliced = requests.filter((r) => !r.startsWith(" "));
    const expected = [
      "branch=main",
      "branch=release-2.3",
      "author=ci-bot",
      "author=Oliver Smith",
      "tags=smoke",
    ].map((f) => `${f} ${PRIOR.start}..${WEEK.end}`);
    // Both weeks of a slice in one request, as the project's own: the prior ends the day
    // before the week starts.
    expect(sliced.sort()).toEqual(expected.sort());
    // The unfiltered weeks, once.
    expect(requests.filter((r) => r.startsWith(" "))).toEqual([` ${PRIOR.start}..${WEEK.end}`]);

    const body = JSON.parse(await readFile(join(out, `${key}.webhook.json`), "utf8"));
    const project = body.projects.find((p: { id: string }) => p.id === DATA_PIPELINE);
    const branches = project.slices.find((s: { dimension: string }) => s.dimension === "branch");
    expect(branches.slices.map((s: { name: string }) => s.name)).toEqual([
      "main",
      "release-2.3",
      "other",
    ]);
    const release = branches.slices[1];
    expect(release.figures.flaky_rate.delta.verdict).toBe("worse");
    const effects = branches.effects.flaky_rate;
    const change = project.figures.flaky_rate.delta.change;
    expect(effects.rate_pp + effects.mix_pp).toBeCloseTo(change, 6);
  });

  it("asks for no slice when the digest has no news", async () => {
    await runWeekly([{ id: IDS.legacy, attribution: ATTRIBUTION }], "quiet");
    const requests = insightsRequests();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => !r.startsWith(" "))).toEqual([]);
    expect(await readdir(join(dirs.dir, "quiet"))).not.toHaveLength(0);
  });
});
