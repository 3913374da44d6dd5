import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliAgainstEmulator } from "./cli-fixture.js";
import { apiEnv } from "./e2e-setup.js";
import { runCli } from "./run-cli.js";

// The CLI's bundle keeps out of a command's start the Node modules that no command calls
// (scripts/bundle-cli.ts): undici's http2, which our pool never allows, and commander's
// child_process, loaded only if a subcommand were an executable of its own. Each was 2-5 ms of
// every command's start. `projects` makes requests through undici's pool, so it would load both.

const cli = cliAgainstEmulator();

/** Node's own modules the command loaded, as `process.moduleLoadList` names them at its exit. */
async function builtinsLoadedBy(args: string[]): Promise<string[]> {
  const hook = join(cli.dir, "module-list.cjs");
  const out = join(cli.dir, "modules.txt");
  await writeFile(
    hook,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join("\\n")));\n`,
  );
  const result = await runCli(args, {
    env: { ...apiEnv(cli.emulator.url), NODE_OPTIONS: `--require ${hook}` },
    cwd: cli.dir,
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return (await readFile(out, "utf8")).split("\n");
}

describe("the CLI's start", () => {
  it("makes its requests without loading Node's http2 or child_process", async () => {
    const loaded = await builtinsLoadedBy(["projects"]);
    // The command did reach the API through undici: its sockets and the pool's modules loaded.
    expect(loaded).toContain("NativeModule net");
    expect(loaded).toContain("NativeModule diagnostics_channel");
    expect(loaded).not.toContain("NativeModule http2");
    expect(loaded).not.toContain("NativeModule child_process");
  });
});
