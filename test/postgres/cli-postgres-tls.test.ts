import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeConfig } from "../e2e/e2e-setup.js";
import { requireBuiltCli, runCli } from "../e2e/run-cli.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { createTestDatabase } from "./create-test-database.js";

/**
 * A state.url whose TLS settings cannot work — sslmode=require against a server without TLS,
 * an sslrootcert file that is not there — is one line naming the fix and exit 2, like refused
 * credentials: never "unexpected error" and a stack trace.
 */

let dirs: Awaited<ReturnType<typeof tempDir>>;
let database: string;
beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
  database = await createTestDatabase();
});
afterAll(async () => {
  await dirs.remove();
});

async function history(query: string) {
  const config = await writeConfig(dirs.dir, {
    state: { url: "${DATABASE_URL}" },
    teams: [{ name: "checkout", timezone: "UTC", projects: [{ id: "dlucmsz" }] }],
  });
  const url = `${database}${database.includes("?") ? "&" : "?"}${query}`;
  return runCli(["history", "--config", config], { env: { DATABASE_URL: url } });
}

function expectOneLine(result: { code: number | null; stderr: string }, fix: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(unwrapLines(result.stderr)).not.toContain("unexpected error");
  const lines = unwrapLines(result.stderr).trimEnd().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^insights-reporter: /);
  expect(lines[0]).toMatch(fix);
  expect(lines[0]).not.toMatch(/:\/\/[^@\s]*:[^@\s]*@/); // no password
}

describe("history, with TLS settings in state.url that cannot work", () => {
  it("names sslmode when the server does not offer TLS (exit 2)", async () => {
    const result = await history("sslmode=verify-full");
    expectOneLine(
      result,
      /does not offer TLS, .*\(sslmode=verify-full\) — turn on ssl in PostgreSQL .*sslmode=disable/,
    );
  });

  it("with sslmode=require too: one line, with no warning of the driver's before it (exit 2)", async () => {
    const result = await history("sslmode=require");
    expectOneLine(result, /does not offer TLS, .*\(sslmode=require\) — /);
    expect(unwrapLines(result.stderr)).not.toContain("SECURITY WARNING");
  });

  it("names the sslrootcert file that is not there (exit 2)", async () => {
    const missing = join(dirs.dir, "no-such-ca.pem");
    const result = await history(`sslmode=verify-full&sslrootcert=${missing}`);
    expectOneLine(result, new RegExp(`sslrootcert ${missing} .*\\(ENOENT\\) — `));
  });
});
