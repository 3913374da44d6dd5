import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unwrapLines } from "../support/unwrap-lines.js";
import { tempDir } from "./e2e-setup.js";
import { type CliResult, requireBuiltCli, runCli } from "./run-cli.js";

/**
 * A config that would exhaust the parser (an alias bomb, a file of megabytes) is refused like
 * any bad config: exit 2 and the one problem, never "unexpected error" and a stack trace.
 */

let dirs: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
});
afterAll(async () => {
  await dirs.remove();
});

async function checkConfig(name: string, text: string): Promise<CliResult & { path: string }> {
  const path = join(dirs.dir, name);
  await writeFile(path, text);
  return { path, ...(await runCli(["check-config", "--config", path])) };
}

function expectOneProblem(result: CliResult & { path: string }, problem: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(unwrapLines(result.stderr)).not.toContain("unexpected error");
  const lines = unwrapLines(result.stderr).trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`insights-reporter: ${result.path}: `);
  expect(lines[0]).toMatch(problem);
}

describe("check-config, with a config that would exhaust the parser", () => {
  it("refuses an alias bomb with exit 2, saying it uses too many YAML aliases", async () => {
    const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(",")}]`,
      );
    }
    const result = await checkConfig("bomb.yaml", `${lines.join("\n")}\n`);
    expectOneProblem(result, /the config uses too many YAML aliases/);
  });

  it("refuses a 2 MB config with exit 2, naming the 1 MB limit", async () => {
    const team = "  - name: t\n    timezone: UTC\n    projects: [{ id: abcdefg }]\n";
    const result = await checkConfig("huge.yaml", `teams:\n${team.repeat(40_000)}`);
    expectOneProblem(result, /the config is 2\.\d MB, over the 1 MB a config may be/);
  });
});
