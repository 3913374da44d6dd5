import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  aDirectory,
  aFullLedger,
  damagedPages,
  foreignDatabase,
  newerLedger,
  randomFile,
  truncatedLedger,
  underAFile,
  wrongColumns,
} from "../state/bad-ledgers.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { cliFor } from "./cli-for-user.js";
import { apiSection, tempDir, writeConfig } from "./e2e-setup.js";
import { type CliResult, requireBuiltCli, runCli } from "./run-cli.js";

/**
 * `history` and `run` with a state.path that cannot be the ledger: exit 2 and one line that
 * names the file and the fix, never "unexpected error" and a stack trace. Permissions are met
 * as an unprivileged user: root writes through file modes, so as root the CLI runs as nobody.
 */

const NOBODY = { uid: 65534, gid: 65534 };

/** Who meets file modes: this user, or (as root) nobody; null when root cannot switch. */
function unprivileged(): { uid: number; gid: number } | undefined | null {
  if (process.getuid?.() !== 0) return undefined;
  const probe = spawnSync(process.execPath, ["-e", ""], NOBODY);
  return probe.error || probe.status !== 0 ? null : NOBODY;
}

interface Case {
  name: string;
  make: (dir: string) => string | Promise<string>;
  fix: RegExp;
  asUser?: true;
}

const CASES: Case[] = [
  { name: "a directory", make: aDirectory, fix: /is a directory — point state\.path at a file/ },
  { name: "a path under a file", make: underAFile, fix: /is a file, not a directory/ },
  { name: "random bytes", make: randomFile, fix: /is not an SQLite database/ },
  { name: "a truncated ledger", make: truncatedLedger, fix: /is damaged .* from a backup/ },
  { name: "another program's database", make: foreignDatabase, fix: /of something else/ },
  { name: "our tables with other columns", make: wrongColumns, fix: /lacks .*slots\.team/ },
  { name: "a newer schema", make: newerLedger, fix: /upgrade insights-reporter/ },
  { name: "pages malformed past the header", make: damagedPages, fix: /is damaged .* backup/ },
  {
    name: "a read-only file",
    make: async (dir) => {
      chmodSync(dir, 0o777);
      const path = await aFullLedger(dir);
      chmodSync(path, 0o444);
      return path;
    },
    fix: /is read-only \(SQLITE_READONLY.*\) — make the file and its directory writable/,
    asUser: true,
  },
  {
    name: "a directory this user cannot write",
    make: async (dir) => {
      const path = await aFullLedger(dir);
      chmodSync(dir, 0o555);
      return path;
    },
    fix: /(read-only|cannot open) .* writable by this user/,
    asUser: true,
  },
  {
    name: "a directory this user cannot enter",
    make: async (dir) => {
      const path = await aFullLedger(dir);
      chmodSync(dir, 0o000);
      return path;
    },
    fix: /permission denied \(EACCES\) — make its directory writable/,
    asUser: true,
  },
];

const ENV = {
  INSIGHTS_API_URL: "https://acme.insights.test/api/external/v1",
  INSIGHTS_API_KEY: "test-api-key-0001",
  SLACK_BOT_TOKEN: "xoxb-test-token",
};

const user = unprivileged();
// That user may not reach this checkout (a clone in a folder only its owner enters): then the
// CLI runs from a copy it can read.
const userCli = user ? cliFor(user) : undefined;
if (userCli?.cli === null) console.warn(`skipping the tests as another user: ${userCli.reason}`);
let dirs: Awaited<ReturnType<typeof tempDir>>;
const locked: string[] = [];

beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
  chmodSync(dirs.dir, 0o755); // the configs must be readable by nobody
});
afterAll(async () => {
  for (const dir of locked) chmodSync(dir, 0o755);
  await dirs.remove();
  userCli?.remove();
});

async function setUp(command: string, c: Case): Promise<string[]> {
  const home = join(dirs.dir, `${command}-${c.name.replaceAll(/\W+/g, "-")}`);
  const ledgerDir = join(home, "state");
  mkdirSync(ledgerDir, { recursive: true });
  const statePath = await c.make(ledgerDir);
  locked.push(ledgerDir);
  const config = await writeConfig(home, {
    api: apiSection(),
    state: { path: statePath },
    teams: [
      {
        name: "checkout",
        timezone: "Europe/Berlin",
        projects: [{ id: "dlucmsz" }],
        digests: [{ name: "daily", schedule: "0 9 * * 1-5", slack: { channel: "C0123ABCD" } }],
      },
    ],
  });
  const args =
    command === "run"
      ? ["run", "--team", "checkout", "--digest", "daily", "--at", "2026-11-18T08:00:00Z"]
      : ["history"];
  return [statePath, ...args, "--config", config];
}

function expectOneLine(result: CliResult, path: string, fix: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(unwrapLines(result.stderr)).not.toContain("unexpected error");
  const lines = unwrapLines(result.stderr).trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^insights-reporter: /);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(fix);
}

describe.each(["history", "run"])("%s, when state.path cannot be the ledger", (command) => {
  for (const c of CASES) {
    // Skipped only where root can become no one else, or that user can read no copy of the CLI.
    const skip = c.asUser && (user === null || userCli?.cli === null);
    it.skipIf(skip)(`exits 2 with one line naming ${c.name} and the fix`, async () => {
      const [path = "", ...args] = await setUp(command, c);
      const result = await runCli(args, {
        env: ENV,
        ...(c.asUser && user && userCli?.cli ? { user, cli: userCli.cli, cwd: dirs.dir } : {}),
      });
      expectOneLine(result, path, c.fix);
    });
  }
});
