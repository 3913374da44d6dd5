import { spawn, spawnSync } from "node:child_process";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Database } from "../../src/state/sqlite/sqlite.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { type RunFixture, startRunFixture } from "./cli-run-fixture.js";
import { CLI, type CliResult } from "./run-cli.js";

/**
 * A ledger that cannot be written once the run is under way — the disk full — is one line
 * naming the ledger and what to do, exit 1 (the delivery failed; the config is fine), and
 * nothing half-written: no post without its record, the ledger intact, the slot sent later.
 * A full disk is met portably, root or not: the CLI runs with a file-size limit (RLIMIT_FSIZE,
 * through util-linux's prlimit), past which every write of the ledger fails as it would on
 * a full disk.
 */

const PRLIMIT = spawnSync("prlimit", ["--version"]).status === 0;
if (!PRLIMIT) console.warn("skipping the full-disk test: prlimit (util-linux) is not installed");

// The shared-memory index (32 kB) fits; the write-ahead log fills after a few 4 kB frames.
const FILE_SIZE_LIMIT = 32_768;

let f: RunFixture;
beforeAll(async () => {
  f = await startRunFixture();
});
afterAll(async () => {
  await f.close();
});

/** `run` as `fixture.run` does it, with every file the CLI writes capped at `bytes`. */
function runWithFileLimit(config: string, at: string, bytes: number): Promise<CliResult> {
  const args = ["run", "--team", "checkout", "--digest", "daily", "--at", at, "--config", config];
  return new Promise((resolve, reject) => {
    const child = spawn("prlimit", [`--fsize=${bytes}`, process.execPath, CLI, ...args], {
      cwd: dirname(config),
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...f.env() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`run under prlimit did not finish\n${stderr}`));
    }, 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("run, when the disk holding the ledger is full", () => {
  it.skipIf(!PRLIMIT)(
    "exits 1 with one line naming the ledger and the fix, posts nothing it cannot record, and sends the slot once there is room",
    async () => {
      const config = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
      const ledger = config.replace(/run-(\d+)\.yaml$/, "ledger-$1.sqlite");
      // A ledger that exists: opening it writes nothing, so the run fails where it records.
      const earlier = await f.run(config, "daily");
      expect(earlier.code, earlier.stderr).toBe(0);
      f.reset();

      const next = "2026-11-19T08:00:00Z";
      const full = await runWithFileLimit(config, next, FILE_SIZE_LIMIT);
      expect(full.code, full.stderr).toBe(1);
      expect(unwrapLines(full.stderr)).not.toContain("unexpected error");
      const lines = unwrapLines(full.stderr).trimEnd().split("\n");
      expect(lines, full.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^insights-reporter: /);
      expect(lines[0]).toContain(ledger);
      expect(lines[0]).toMatch(/free space|full/);
      expect(f.slack.posts, "posted without a record").toHaveLength(0);

      const db = new Database(ledger, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        db.close();
      }
      const later = await f.cli([
        "run",
        "--team",
        "checkout",
        "--digest",
        "daily",
        "--at",
        next,
        "--config",
        config,
      ]);
      expect(later.code, later.stderr).toBe(0);
      expect(f.slack.posts.filter((p) => p.thread_ts === null)).toHaveLength(1);
    },
  );
});
