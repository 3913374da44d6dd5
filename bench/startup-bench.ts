import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI, median, startEmulatorProcess } from "./bench-support.js";

// How long a CLI command takes from `node` to its exit, for the three a person runs by hand
// (issue 39: each ≤ 0.3 s on Node 20), each with the demo config:
// - `check-config`: reads and checks the config and plans every schedule's next fires; no network.
// - `preview --team checkout --digest daily`: the checkout team's daily digest (3 projects) as
//   terminal text, fetched from the emulator; no charts, nothing written.
// - `run --team mobile --digest daily --outbox DIR --force`: the mobile team's daily digest
//   (2 projects, no charts) fetched from the emulator and written as a Slack post, a mail and the
//   workbook the mail attaches.
// The emulator is a process of its own, started once and asked once before timing, so its first
// answers' work is not counted. Each command's first run warms the disk cache and is not
// counted; the commands take turns, so a machine slowing down during the bench slows each alike.
// Each run starts with no ledger (a fresh working directory), as a first `run --outbox` does.

const DEMO = fileURLToPath(new URL("../config/demo.yaml", import.meta.url));

export interface StartupFigure {
  /** The command as typed, without `--config`. */
  command: string;
  /** Median wall time of the process, in ms. */
  ms: number;
}

/** The median time of each command, `runs` runs each (after one not counted). */
export async function measureStartup(runs: number): Promise<StartupFigure[]> {
  const emulator = await startEmulatorProcess(["--key", "bench-key"]);
  const dir = mkdtempSync(join(tmpdir(), "startup-bench-"));
  const outbox = join(dir, "outbox");
  const commands = [
    ["check-config"],
    ["preview", "--team", "checkout", "--digest", "daily"],
    ["run", "--team", "mobile", "--digest", "daily", "--outbox", outbox, "--force"],
  ];
  const env = {
    PATH: process.env.PATH ?? "",
    INSIGHTS_API_URL: emulator.url,
    INSIGHTS_API_KEY: "bench-key",
    SLACK_BOT_TOKEN: "xoxb-bench",
    SMTP_URL: "smtp://127.0.0.1:2525",
  };
  const times: number[][] = commands.map(() => []);
  try {
    for (let i = 0; i < runs + 1; i++) {
      for (const [c, args] of commands.entries()) {
        const started = performance.now();
        const result = spawnSync(process.execPath, [CLI, ...args, "--config", DEMO], {
          cwd: dir,
          env,
          stdio: "ignore",
        });
        const ms = performance.now() - started;
        if (result.status !== 0) throw new Error(`${args.join(" ")} exited with ${result.status}`);
        if (i > 0) times[c]?.push(ms);
      }
    }
  } finally {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return commands.map((args, c) => ({
    command: args.map((a) => (a === outbox ? "DIR" : a)).join(" "),
    ms: median(times[c] ?? []),
  }));
}

// `tsx bench/startup-bench.ts [runs]` (after `npm run build`): these figures alone.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const { command, ms } of await measureStartup(Number(process.argv[2] ?? 9))) {
    console.log(`${command}: ${(ms / 1000).toFixed(2)} s (median)`);
  }
}
