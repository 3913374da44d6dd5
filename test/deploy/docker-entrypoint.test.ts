import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The image's entrypoint (scripts/docker-entrypoint.sh) runs the CLI in its directory, the daemon
// with a small young generation and every other command with V8's default. Run here against a
// stand-in dist/cli.js that prints the node flags and the arguments it was given.

const ENTRYPOINT = fileURLToPath(new URL("../../scripts/docker-entrypoint.sh", import.meta.url));
let app = "";

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), "entrypoint-"));
  await mkdir(join(app, "dist"));
  await writeFile(
    join(app, "dist", "cli.js"),
    "console.log(JSON.stringify({ flags: process.execArgv, args: process.argv.slice(2) }));\n",
  );
});
afterAll(async () => {
  await rm(app, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<{ flags: string[]; args: string[] }> {
  // node from the PATH, as in the image; the test's own node put first on it.
  const path = `${join(process.execPath, "..")}:${process.env.PATH ?? ""}`;
  const { stdout } = await promisify(execFile)("sh", [ENTRYPOINT, ...args], {
    cwd: app,
    env: { ...process.env, PATH: path },
  });
  return JSON.parse(stdout);
}

describe("the Docker image's entrypoint", () => {
  it("starts the daemon with a 2 MB young generation, its arguments passed on", async () => {
    expect(await run("start", "--config", "/data/reporter.yaml")).toEqual({
      flags: ["--max-semi-space-size=2"],
      args: ["start", "--config", "/data/reporter.yaml"],
    });
  });

  it("runs every other command with V8's defaults", async () => {
    expect(await run("export", "--team", "checkout")).toEqual({
      flags: [],
      args: ["export", "--team", "checkout"],
    });
    expect(await run()).toEqual({ flags: [], args: [] });
  });
});
