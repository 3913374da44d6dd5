import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backfillCommand } from "../../src/commands/backfill-command.js";
import { exportCommand } from "../../src/commands/export-command.js";
import { storeCommand } from "../../src/commands/store-command.js";
import { loadConfig } from "../../src/config/load-config.js";
import { createApiClient } from "../../src/create-read-clients.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { createLogger } from "../../src/logger.js";
import { datesIn } from "../../src/periods/calendar-date.js";
import { Secret } from "../../src/secret.js";
import { openDayStore } from "../../src/state/open/open-day-store.js";
import { Database } from "../../src/state/sqlite/sqlite.js";
import { createTestDatabase } from "../postgres/create-test-database.js";
import { API_KEY, tempDir, writeConfig } from "./e2e-setup.js";
import { CLI, requireBuiltCli, runCli } from "./run-cli.js";

// `backfill` over the emulator, whose today moves with the test's clock: the store it fills
// answers an export four months later, when the API refuses the range; a second backfill asks
// only for the days not yet final; and a backfill killed midway, run again, leaves no gap.

let clock = Date.parse("2026-07-20T10:00:00Z");
let emulator: RunningEmulator;
let dirs: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  requireBuiltCli();
  emulator = await startEmulator({ now: () => new Date(clock), key: API_KEY, projects: 3 });
  dirs = await tempDir();
});
afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

function config(name: string, url = emulator.url, state?: Record<string, string>) {
  return writeConfig(
    dirs.dir,
    {
      api: { url, key: API_KEY },
      state: state ?? { path: join(dirs.dir, `${name}.sqlite`) },
      teams: [
        {
          name: "checkout",
          timezone: "Europe/Berlin",
          projects: emulator.projects.map((p) => ({ id: p.id })),
          digests: [
            {
              name: "weekly",
              schedule: "0 8 * * 1",
              period: "previous_week",
              slack: { channel: "C0123ABCD" },
            },
          ],
        },
      ],
    },
    `${name}.yaml`,
  );
}

const insightsRequests = () =>
  emulator.requestLog.filter((request) => request.path.endsWith("/insights")).length;
const quiet = { isTTY: false } as NodeJS.WriteStream;

describe("backfill", () => {
  it("fills the store that an export reads once the API no longer serves the range", async () => {
    clock = Date.parse("2026-07-20T10:00:00Z");
    const path = await config("fill");
    const lines: string[] = [];
    const now = () => new Date(clock);
    expect(await backfillCommand({ config: path }, (l) => lines.push(l), now, quiet)).toBe(0);
    expect(lines.at(-1)).toMatch(/^backfilled 3 of 3 series with \d+ requests$/);

    const covered: string[] = [];
    expect(await storeCommand({ config: path }, (l) => covered.push(l))).toBe(0);
    // Three calendar months back from 2026-07-20, from the first day the API serves: 04-20
    // through today. Each series by its name from the API (the config names none), then its days.
    const held = "  first day 2026-04-20, last day 2026-07-20: 92 days held, no day missing";
    expect(covered).toHaveLength(2 * emulator.projects.length);
    for (const p of emulator.projects) {
      const at = covered.indexOf(`${p.name} (${p.id}), all runs, Europe/Berlin`);
      expect(at, covered.join("\n")).toBeGreaterThanOrEqual(0);
      expect(covered[at + 1]).toBe(held);
    }

    // Again at once: the recent days were fetched a moment ago, nothing is asked.
    emulator.requestLog.length = 0;
    expect(await backfillCommand({ config: path }, () => {}, now, quiet)).toBe(0);
    expect(insightsRequests()).toBe(0);
    // An hour on: only the recent days, not yet final, are asked — one request per series.
    clock += 3_600_000;
    expect(await backfillCommand({ config: path }, () => {}, now, quiet)).toBe(0);
    expect(insightsRequests()).toBe(3);

    clock = Date.parse("2026-11-20T10:00:00Z"); // four months on
    emulator.requestLog.length = 0;
    const out: string[] = [];
    const xlsx = join(dirs.dir, "june.xlsx");
    const code = await exportCommand(
      { team: "checkout", from: "2026-06-08", to: "2026-06-14", out: xlsx, config: path },
      (l) => out.push(l),
      now,
      quiet,
    );
    expect(code, out.join("\n")).toBe(0);
    // Fitted to 80 columns: the line may break between its words.
    expect(out.join(" ").replace(/\s+/g, " ")).toContain(
      "3 projects, 2026-06-08..2026-06-14 vs 2026-06-01..2026-06-07",
    );
    expect(insightsRequests()).toBe(0);
  });

  it("leaves a warm day one request per series, for a chart reaching past the API's lookback", async () => {
    // Backfilled at 08:00; at 09:00 a 28-day digest's 16-week chart asks from 08-08, 20 days
    // before the first day the API serves (08-28). Held: 08-28 on; refused: before it.
    clock = Date.parse("2026-11-28T08:00:00Z");
    const path = await config("warm");
    const now = () => new Date(clock);
    expect(await backfillCommand({ config: path }, () => {}, now, quiet)).toBe(0);
    clock = Date.parse("2026-11-28T09:00:00Z");
    emulator.requestLog.length = 0;
    const api = createApiClient(
      loadConfig(path, { env: {}, requireCredentials: false }),
      undefined,
      undefined,
      () => clock,
    );
    try {
      for (const project of emulator.projects) {
        const chart = await api.getInsights(project.id, {
          startDate: "2026-08-08",
          endDate: "2026-11-27",
          timezone: "Europe/Berlin",
          branch: null,
          author: null,
          tags: [],
        });
        expect(chart.missingDays).toEqual(datesIn({ start: "2026-08-08", end: "2026-08-27" }));
      }
    } finally {
      await api.close();
    }
    // The recent window alone, once per series: nothing before it, held or refused, is asked.
    const asked = emulator.requestLog.filter((request) => request.path.endsWith("/insights"));
    expect(asked.map((r) => [r.query.start_date, r.query.end_date])).toEqual(
      emulator.projects.map(() => ["2026-11-24", "2026-11-28"]),
    );
  });

  // Three series of 92 days, three chunks each: what one backfill alone asks for.
  const ONE_BACKFILL_REQUESTS = 9;

  it("two backfills of one SQLite file at once ask for each chunk once", async () => {
    clock = Date.parse("2026-07-20T10:00:00Z");
    const path = await config("together");
    const now = () => new Date(clock);
    emulator.requestLog.length = 0;
    const codes = await Promise.all([
      backfillCommand({ config: path }, () => {}, now, quiet),
      backfillCommand({ config: path }, () => {}, now, quiet),
    ]);
    expect(codes).toEqual([0, 0]);
    expect(insightsRequests()).toBe(ONE_BACKFILL_REQUESTS);
  });

  it("two replicas backfilling one PostgreSQL at once store each day once, asked once", async () => {
    clock = Date.parse("2026-07-20T10:00:00Z");
    const url = await createTestDatabase();
    const path = await config("replicas", emulator.url, { url });
    const now = () => new Date(clock);
    emulator.requestLog.length = 0;
    const codes = await Promise.all([
      backfillCommand({ config: path }, () => {}, now, quiet),
      backfillCommand({ config: path }, () => {}, now, quiet),
    ]);
    expect(codes).toEqual([0, 0]);
    expect(insightsRequests()).toBe(ONE_BACKFILL_REQUESTS);
    const store = await openDayStore(
      { path: "", url: new Secret(url) },
      createLogger({ level: "silent" }),
    );
    try {
      const rows = await store.coverage();
      expect(rows.map((row) => [row.first, row.last, row.days])).toEqual(
        emulator.projects.map(() => ["2026-04-20", "2026-07-20", 92]),
      );
    } finally {
      await store.close();
    }
  });

  it("killed midway and run again, leaves no day out", { timeout: 90_000 }, async () => {
    // The CLI runs on the real clock: an emulator whose today is the real one, and slow.
    const slow = await startEmulator({ key: API_KEY, projects: 3, latencyMs: 150 });
    try {
      const path = await config("killed", slow.url);
      const ledger = join(dirs.dir, "killed.sqlite");
      const child = spawn(process.execPath, [CLI, "backfill", "--config", path], {
        env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => child.on("exit", resolve));
      // Killed as soon as the first chunk is in the store.
      await until(() => storedDays(ledger) > 0);
      child.kill("SIGKILL");
      await exited;
      const partial = storedDays(ledger);

      const again = await runCli(["backfill", "--config", path], { timeoutMs: 60_000 });
      expect(again.code, again.stderr).toBe(0);
      const rows = coverage(ledger);
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(row.days).toBe(datesIn({ start: row.first, end: row.last }).length);
      }
      expect(rows.reduce((sum, row) => sum + row.days, 0)).toBeGreaterThan(partial);
    } finally {
      await slow.close();
    }
  });
});

function storedDays(path: string): number {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare("SELECT COUNT(*) AS n FROM insight_days").get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created, or not migrated yet
  }
}

function coverage(path: string): { first: string; last: string; days: number }[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT MIN(date) AS first, MAX(date) AS last, COUNT(*) AS days FROM insight_days GROUP BY project",
      )
      .all() as { first: string; last: string; days: number }[];
  } finally {
    db.close();
  }
}

/** Resolves once `check` holds, looking again on each turn of the event loop's timers. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
