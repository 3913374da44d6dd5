import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCommand } from "../../src/commands/export-command.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { API_KEY, apiEnv, TODAY, tempDir, writeConfig } from "./e2e-setup.js";
import { requireBuiltCli, runCli } from "./run-cli.js";

/** Output as one line of words: export fits its lines to 80 columns, breaking between words. */
const words = (text: string) => text.replace(/\s+/g, " ");

/**
 * `export` beyond the happy path: a project the API does not know (exit 1, the workbook still
 * written), another zone with --tz, and the progress bar a terminal gets for many projects.
 */

let emulator: RunningEmulator;
let dirs: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  requireBuiltCli();
  emulator = await startEmulator({ today: TODAY, key: API_KEY, projects: 12 });
  dirs = await tempDir();
});
afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

/** A team of the given project ids, with the API's URL and key written in (no variables). */
function teamConfig(ids: string[], name: string) {
  return writeConfig(
    dirs.dir,
    {
      api: { url: emulator.url, key: API_KEY },
      teams: [
        {
          name: "checkout",
          timezone: "Europe/Berlin",
          projects: ids.map((id) => ({ id })),
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
    name,
  );
}

const RANGE = ["--from", "2026-11-09", "--to", "2026-11-15"];

describe("export", () => {
  it("exits 1 naming a project the API does not know, and still writes the others", async () => {
    const [known] = emulator.projects;
    const config = await teamConfig([known?.id ?? "", "zzghost"], "ghost.yaml");
    const out = join(dirs.dir, "ghost.xlsx");
    const result = await runCli(
      ["export", "--team", "checkout", ...RANGE, "--out", out, "--config", config],
      { env: apiEnv(emulator.url), cwd: dirs.dir },
    );
    expect(result.code).toBe(1);
    expect(words(result.stdout)).toContain(`wrote ${out}: 2 projects`);
    expect(words(result.stdout)).toMatch(/zzghost unavailable: project "zzghost" was not found/);
  });

  it("buckets days in the zone --tz names, and says which", async () => {
    const [known] = emulator.projects;
    const config = await teamConfig([known?.id ?? ""], "tz.yaml");
    const out = join(dirs.dir, "tz.xlsx");
    const withConfig = await runCli(
      [
        "export",
        "--team",
        "checkout",
        ...RANGE,
        "--tz",
        "America/New_York",
        "--out",
        out,
        "--config",
        config,
      ],
      { env: apiEnv(emulator.url), cwd: dirs.dir },
    );
    expect(withConfig.code, withConfig.stderr).toBe(0);
    expect(words(withConfig.stdout)).toContain(
      "2026-11-09..2026-11-15 vs 2026-11-02..2026-11-08 (America/New_York)",
    );
    const asked = emulator.requestLog.filter((r) => r.path.endsWith("/insights"));
    expect(asked.at(-1)?.query.timezone).toBe("America/New_York");
  });

  it("draws a progress bar on a terminal when there are many projects, and none otherwise", async () => {
    const config = await teamConfig(
      emulator.projects.slice(0, 10).map((p) => p.id),
      "many.yaml",
    );
    const drawn: string[] = [];
    const terminal = { isTTY: true, write: (text: string) => drawn.push(text) };
    const lines: string[] = [];
    const code = await exportCommand(
      {
        team: "checkout",
        config,
        from: "2026-11-09",
        to: "2026-11-15",
        out: join(dirs.dir, "many.xlsx"),
      },
      (line) => lines.push(line),
      () => new Date(`${TODAY}T12:00:00Z`),
      terminal as unknown as NodeJS.WriteStream,
    );
    expect(code).toBe(0);
    expect(drawn[0]).toMatch(/^\r {2}fetching \[#* *\] 1\/10 projects$/);
    expect(drawn).toContain(`\r  fetching [${"#".repeat(30)}] 10/10 projects`);

    const pipe = { isTTY: false, write: (text: string) => drawn.push(`pipe: ${text}`) };
    await exportCommand(
      {
        team: "checkout",
        config,
        from: "2026-11-09",
        to: "2026-11-15",
        out: join(dirs.dir, "many.xlsx"),
      },
      () => {},
      () => new Date(`${TODAY}T12:00:00Z`),
      pipe as unknown as NodeJS.WriteStream,
    );
    expect(drawn.filter((t) => t.startsWith("pipe:"))).toEqual([]);
  });
});
