import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "./run-cli.js";

/**
 * `insights-reporter history | head`: the reader leaves before the CLI is done writing. Like any
 * Unix tool on a closed pipe, the CLI stops quietly — not with an unhandled EPIPE's stack.
 */

beforeAll(() => requireBuiltCli());

/** Runs the CLI with its stdout's reading end closed before the CLI writes a byte. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Node takes far longer to start than this line: the pipe is closed before any write.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("the CLI writing into a pipe its reader closed", () => {
  it("stops quietly with status 0, no EPIPE on stderr", async () => {
    const { code, stderr } = await runIntoClosedPipe(["--help"]);
    expect(stderr).not.toContain("EPIPE");
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
