import { spawnSync } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createLogger } from "../src/logger.js";
import { addDays, datesIn } from "../src/periods/calendar-date.js";
import { firstKeptDate, parseRetention } from "../src/periods/retention.js";
import { dayFilterKey, type StoredDay } from "../src/state/day-store.js";
import { openDayStore } from "../src/state/open/open-day-store.js";
import { CLI, startEmulatorProcess } from "./bench-support.js";
import { projectIds } from "./cycle-bench.js";

// A 2-year export of 100 projects from the day store: the store is seeded with every day of
// the two years `history.keep` keeps (100 × ~730 days), and `export` runs in a process of its
// own, so its time and peak RSS are the export's alone. The child runs the built `export`
// (dist/, as users run it; `npm run bench` builds it), not the sources through tsx, whose
// compiler would add ~40 MB to the peak. The API (the emulator) is asked only for what the
// store lacks: the prior two years, past its lookback, named as missing.

const PROJECTS = 100;

export interface ExportFigures {
  ms: number;
  peakRssBytes: number;
  fileBytes: number;
  days: number;
}

/** A day's counts, varied by project and date so the workbook is not one repeated row. */
function syntheticDay(date: string, p: number, fetchedAt: Date): StoredDay {
  const n = (Number(date.slice(8)) * 7 + p * 13) % 40;
  return {
    date,
    runs: { passed: 60 + n, failed: n % 5, meanDurationMs: 240_000 + n * 1_000 },
    tests: { passed: 5_000 + n * 10, failed: n % 7, skipped: 20, flaky: n % 11, timedOut: n % 3 },
    fetchedAt,
  };
}

/** Seeds the store, runs the export in a child process, returns its figures. */
export async function measureExport(today: string): Promise<ExportFigures> {
  const emulator = await startEmulatorProcess(["--projects", String(PROJECTS), "--today", today]);
  const dir = await mkdtemp(join(tmpdir(), "export-bench-"));
  try {
    const ids = (await projectIds(emulator.url)).slice(0, PROJECTS);
    const statePath = join(dir, "ledger.sqlite");
    const from = firstKeptDate(today, parseRetention("2y"));
    const to = addDays(today, -4); // every day final: nothing recent to ask
    const dates = datesIn({ start: from, end: to });
    const store = await openDayStore(
      { path: statePath, url: null },
      createLogger({ level: "silent" }),
    );
    const fetchedAt = new Date(`${today}T06:00:00Z`);
    const filters = dayFilterKey({ branch: null, author: null, tags: [] });
    for (const [p, id] of ids.entries()) {
      await store.writeDays(
        { projectId: id, filters, timezone: "Etc/UTC" },
        dates.map((date) => syntheticDay(date, p, fetchedAt)),
      );
    }
    await store.close();
    const config = join(dir, "bench.yaml");
    await writeFile(
      config,
      [
        "api:",
        `  url: ${emulator.url}`,
        "  key: demo-key",
        "state:",
        `  path: ${JSON.stringify(statePath)}`,
        "teams:",
        "  - name: big",
        "    timezone: Etc/UTC",
        "    projects:",
        ...ids.map((id) => `      - id: ${id}`),
        "    digests:",
        "      - name: daily",
        '        schedule: "0 9 * * *"',
        "        slack: { channel: C0123ABCD }",
        "",
      ].join("\n"),
    );
    const out = join(dir, "two-years.xlsx");
    const child = spawnSync(
      process.execPath,
      [
        // BENCH_CPU_PROF=DIR writes the export's CPU profile there, to see where its time goes.
        ...(process.env.BENCH_CPU_PROF
          ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_CPU_PROF]
          : []),
        "--input-type=module",
        "-e",
        CHILD,
        config,
        from,
        to,
        out,
        today,
      ],
      { encoding: "utf8" },
    );
    const last = child.stdout.trim().split("\n").at(-1) ?? "";
    if (child.status !== 0 || !last.startsWith("{")) {
      throw new Error(`the export failed (${child.status}): ${child.stderr}${child.stdout}`);
    }
    const figures = JSON.parse(last) as { ms: number; peakRssBytes: number };
    return { ...figures, fileBytes: (await stat(out)).size, days: dates.length };
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The built export command, beside the CLI the emulator runs from. */
const EXPORT_COMMAND = new URL("commands/export-command.js", pathToFileURL(CLI)).href;
/** The settings the CLI gives `export` before it loads the command (compiler-tuning.ts). */
const COMPILER_TUNING = new URL("compiler-tuning.js", pathToFileURL(CLI)).href;

/**
 * In the child (plain JavaScript, args: config from to out today): the export alone, timed, with
 * the process's peak RSS, in a process set as the CLI sets one for `export`.
 */
const CHILD = `
const [config, from, to, out, today] = process.argv.slice(1);
(await import(${JSON.stringify(COMPILER_TUNING)})).tuneForCommand("export");
const { exportCommand } = await import(${JSON.stringify(EXPORT_COMMAND)});
const lines = [];
const started = performance.now();
const code = await exportCommand(
  { team: "big", from, to, out, config },
  (line) => lines.push(line),
  () => new Date(today + "T09:00:00Z"),
  { isTTY: false },
);
const ms = performance.now() - started;
if (code !== 0) console.error(lines.join("\\n"));
console.log(JSON.stringify({ ms, peakRssBytes: process.resourceUsage().maxRSS * 1024, code }));
`;

if (process.argv[1]?.endsWith("export-bench.ts")) {
  const today = process.argv[2] ?? new Date().toISOString().slice(0, 10);
  console.log(JSON.stringify(await measureExport(today)));
}
