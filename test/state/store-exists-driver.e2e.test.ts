import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { unwrapLines } from "../support/unwrap-lines.js";

// `preview` and `run --outbox` ask whether there is a ledger before they open one: on a machine
// with none, the answer must not load the SQLite driver (some 15 ms of a command's start-up on
// Node 20). Run in a process of its own, from the built modules, so no other test's driver counts.

const OPEN_STORE = new URL("../../dist/state/open/open-store.js", import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), "store-exists-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether `path` holds a ledger, and whether asking loaded better-sqlite3. */
function ask(path: string): { exists: boolean; driverLoaded: boolean } {
  const script = [
    'import { createRequire } from "node:module";',
    `const { storeExists } = await import(${JSON.stringify(OPEN_STORE)});`,
    "const exists = storeExists({ path: process.argv[1], url: null });",
    "const cache = Object.keys(createRequire(import.meta.url).cache);",
    'const driverLoaded = cache.some((p) => p.includes("better-sqlite3"));',
    "process.stdout.write(JSON.stringify({ exists, driverLoaded }));",
  ].join("\n");
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script, path], {
    encoding: "utf8",
  });
  expect(unwrapLines(result.stderr)).toBe("");
  return JSON.parse(result.stdout);
}

describe("storeExists", () => {
  it("answers without loading the SQLite driver, with a ledger file or without one", () => {
    expect(ask(join(dir, "none.sqlite"))).toEqual({ exists: false, driverLoaded: false });
    const path = join(dir, "there.sqlite");
    writeFileSync(path, "");
    expect(ask(path)).toEqual({ exists: true, driverLoaded: false });
  });
});
