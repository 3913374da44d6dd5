import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

// `npm run soak` runs under tsx, not vitest, and borrows the tests' daemon and fakes from
// test/. A module of test/ that imports vitest (an `afterEach`) cannot load there: the soak
// stopped at its first line for two days before anyone ran it. So the test/ modules it
// imports are loaded here as the soak loads them, outside vitest.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

it("loads the test/ modules the soak bench borrows outside vitest", async () => {
  const soak = readFileSync(new URL("../../bench/soak.ts", import.meta.url), "utf8");
  const borrowed = [...soak.matchAll(/from "\.\.\/(test\/[^"]+)\.js"/g)].map(
    (match) => `./${match[1]}.ts`,
  );
  expect(borrowed).toContain("./test/daemon/daemon-process.ts");
  const load = `await Promise.all(${JSON.stringify(borrowed)}.map((m) => import(m))); console.log("loaded");`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", load],
    { cwd: ROOT },
  );
  expect(stdout.trim()).toBe("loaded");
}, 60_000);
