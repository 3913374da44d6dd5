import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./e2e-setup.js";
import { type CliResult, requireBuiltCli, runCli } from "./run-cli.js";

// README's "What a digest looks like" is the demo's own output at a fixed date, so it cannot
// drift from what `npm run demo -- --at 2026-11-23` prints: regenerate it from that command.

const README = fileURLToPath(new URL("../../README.md", import.meta.url));
const AT = "2026-11-23";

let dirs: Awaited<ReturnType<typeof tempDir>>;
let result: CliResult;

beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
  result = await runCli(["demo", "--at", AT, "--out", join(dirs.dir, "out")], {
    cwd: dirs.dir,
    timeoutMs: 60_000,
  });
}, 70_000);

afterAll(async () => {
  await dirs.remove();
});

/** The printed digest under `━━ team / digest ━━ key`, up to the line of files it wrote. */
function printedDigest(team: string, digest: string): string {
  const lines = result.stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`\u2501\u2501 ${team} / ${digest} `));
  const end = lines.findIndex((l, i) => i > start && l.startsWith("\u2192 "));
  if (start < 0 || end < 0) throw new Error(`the demo printed no ${team}/${digest} digest`);
  return lines
    .slice(start + 1, end)
    .join("\n")
    .trimEnd();
}

describe(`demo --at ${AT}`, () => {
  it("prints README's digest example, line for line", async () => {
    expect(result.code, result.stderr).toBe(0);
    const readme = await readFile(README, "utf8");
    const section = readme.slice(readme.indexOf("## What a digest looks like"));
    expect(section).toContain(`npm run demo -- --at ${AT}`);
    const example = /```\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(example).toBe(printedDigest("checkout", "weekly"));
  });
});
