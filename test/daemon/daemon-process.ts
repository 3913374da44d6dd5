import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { waitFor } from "./live-setup.js";

/**
 * The built binary (`node dist/cli.js start`) as a child process, as users run it: its JSON
 * log lines parsed as they arrive, its exit awaited. `npm test` builds dist before vitest.
 * Nothing here imports vitest, so the benches (`npm run soak`) start daemons with it too;
 * live-daemons.ts has the tests' clean-up.
 */

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface DaemonProcess {
  child: ChildProcess;
  logs: Array<Record<string, unknown>>;
  /** stderr lines that are not JSON (the CLI's own messages). */
  text: string[];
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits for a log line whose msg is `msg` (and that matches `where`). */
  logged(
    msg: string,
    where?: (line: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>>;
  /** The ops server's URL, once the daemon has started. */
  opsUrl(): Promise<string>;
}

/** Starts `node [nodeFlags] dist/cli.js <args>` with only PATH and `env` in its environment. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeFlags: readonly string[] = [],
): DaemonProcess {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing — run \`npm run build\` first`);
  const child = spawn(process.execPath, [...nodeFlags, CLI, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Array<Record<string, unknown>> = [];
  const text: string[] = [];
  let buffered = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        text.push(line);
      }
    }
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const logged = (msg: string, where: (line: Record<string, unknown>) => boolean = () => true) =>
    waitFor(`log "${msg}" (got: ${JSON.stringify(logs.map((l) => l.msg))} ${text.join(" ")})`, () =>
      logs.find((l) => l.msg === msg && where(l)),
    );
  return {
    child,
    logs,
    text,
    exit,
    logged,
    opsUrl: async () => String((await logged("daemon started")).ops),
  };
}

/** `start --config <path>` of the built binary. */
export function startDaemonProcess(
  configPath: string,
  env: NodeJS.ProcessEnv,
  nodeFlags: readonly string[] = [],
): DaemonProcess {
  return runCli(["start", "--config", configPath], env, nodeFlags);
}
