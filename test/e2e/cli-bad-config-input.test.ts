import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrapLines } from "../support/unwrap-lines.js";
import { tempDir } from "./e2e-setup.js";
import { type CliResult, requireBuiltCli, runCli } from "./run-cli.js";

/**
 * Bad input gets one line and exit 2 — never a stack trace, never a hang: YAML that parses but
 * cannot become data (an alias to no anchor, a merge of a number), and a --config that is not
 * a file at all (a device that never ends, a FIFO nobody writes to).
 */

let dirs: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
});
afterAll(async () => {
  await dirs.remove();
});

const ENV = {
  INSIGHTS_API_URL: "https://acme.insights.test/api/external/v1",
  INSIGHTS_API_KEY: "test-api-key-0001",
};

const TOP = "api:\n  url: ${INSIGHTS_API_URL}\n  key: ${INSIGHTS_API_KEY}\nteams:\n";

async function checkConfig(name: string, text: string): Promise<CliResult & { path: string }> {
  const path = join(dirs.dir, name);
  await writeFile(path, text);
  return { path, ...(await runCli(["check-config", "--config", path], { env: ENV })) };
}

function expectOneLine(result: CliResult, path: string, problem: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(unwrapLines(result.stderr)).not.toContain("unexpected error");
  const lines = unwrapLines(result.stderr).trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`insights-reporter: ${path}: `);
  expect(lines[0]).toMatch(problem);
}

describe("check-config, with YAML that parses but cannot become data", () => {
  it("refuses an alias to an anchor never set, naming its line and the fix (exit 2)", async () => {
    const text = `${TOP}  - name: t\n    timezone: UTC\n    projects: [{ id: abc }]\n    dashboard_url: *nope\n`;
    const result = await checkConfig("alias.yaml", text);
    expectOneLine(
      result,
      result.path,
      /\*nope at line 8 has no anchor &nope before it — set it above/,
    );
  });

  it("refuses a merge key whose value is not a mapping, naming its line and the fix (exit 2)", async () => {
    const text = `${TOP}  - name: t\n    <<: 5\n    timezone: UTC\n    projects: [{ id: abc }]\n`;
    const result = await checkConfig("merge.yaml", text);
    expectOneLine(result, result.path, /merge key << at line 6 must be followed by a mapping/);
  });

  it("still merges a mapping through an alias", async () => {
    const text = `shared: &zone\n  timezone: UTC\n${TOP.replace("teams:\n", "")}teams:\n  - name: t\n    <<: *zone\n    projects: [{ id: abc }]\n`;
    const result = await checkConfig("merge-ok.yaml", text);
    // `shared` is not a config key: the merge itself went through, and only that is refused.
    expect(unwrapLines(result.stderr)).not.toContain("unexpected error");
    expect(unwrapLines(result.stderr)).toMatch(/shared/);
    expect(unwrapLines(result.stderr)).not.toMatch(/timezone/);
  });
});

describe("a --config that is not a regular file", () => {
  it.each([
    ["/dev/zero", "a device"],
    ["/dev/urandom", "a device"],
  ])("refuses %s at once as %s (exit 2), never reading it", async (path, what) => {
    const result = await runCli(["check-config", "--config", path], {
      env: ENV,
      timeoutMs: 10_000,
    });
    expectOneLine(result, path, new RegExp(`is ${what}, not a file — pass --config FILE`));
  });

  it("refuses a FIFO at once (exit 2), never waiting for a writer", async () => {
    const fifo = join(dirs.dir, "config.fifo");
    execFileSync("mkfifo", [fifo]);
    const result = await runCli(["check-config", "--config", fifo], {
      env: ENV,
      timeoutMs: 10_000,
    });
    expectOneLine(result, fifo, /is a FIFO, not a file — pass --config FILE/);
  });

  it("refuses a directory (exit 2), saying so", async () => {
    const result = await runCli(["check-config", "--config", dirs.dir], { env: ENV });
    expectOneLine(result, dirs.dir, /is a directory, not a file — pass --config FILE/);
  });
});

describe("start, with a server.host that names no address", () => {
  it("exits 2 with one line naming server.host and the fix, never a stack trace", async () => {
    const state = join(dirs.dir, "host.sqlite");
    const text = `${TOP.replace("teams:\n", "")}state:\n  path: ${state}\nserver:\n  host: no-such-host.invalid\n  port: 0\nteams:\n  - name: t\n    timezone: UTC\n    projects: [{ id: abc }]\n    digests: [{ name: d, schedule: "0 9 * * *", slack: { channel: C0123ABCD } }]\n`;
    const path = join(dirs.dir, "host.yaml");
    await writeFile(path, text);
    const result = await runCli(["start", "--config", path], {
      env: { ...ENV, SLACK_BOT_TOKEN: "xoxb-test-token" },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(unwrapLines(result.stderr)).not.toContain("unexpected error");
    const lines = unwrapLines(result.stderr).trimEnd().split("\n");
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^insights-reporter: .*server\.host "no-such-host\.invalid".*\((ENOTFOUND|EAI_AGAIN)\) — set server\.host to/,
    );
  });
});
