import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Runs the built CLI (`node dist/cli.js …`) as a user would, in its own process. Asynchronous
 * on purpose: the emulator, fake Slack and SMTP server it talks to live in this test process
 * and must keep answering while it runs.
 */

export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Fails early when `dist/` is missing (vitest's global setup builds it before any test). */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) {
    throw new Error(
      `${CLI} is missing — the e2e project builds it (see vitest.config.ts): put the test under test/e2e, or run \`npm run build\` first`,
    );
  }
}

/**
 * `node dist/cli.js ...args` with only the variables given (plus PATH), so nothing from the
 * developer's shell — a real token, a REPORTER_CONFIG — leaks into a test.
 */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
    /** Run as this user (root only), e.g. to meet permissions that root walks through. */
    user?: { uid: number; gid: number };
    /** Another copy of dist/cli.js, e.g. one that user can read (see cli-for-user.ts). */
    cli?: string;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.cli ?? CLI, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      ...options.user,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`CLI ${args.join(" ")} did not finish\nstdout:\n${stdout}\nstderr:\n${stderr}`),
      );
    }, options.timeoutMs ?? 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
