import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";

// What every benchmark shares: the built CLI, the emulator as a process of its own (so its CPU
// is not counted as the reporter's), a generated config, and the median of repeated runs.

export const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** The node flags the Docker image and the systemd unit start the daemon with (scripts/docker-entrypoint.sh). */
export const DAEMON_NODE_FLAGS = ["--max-semi-space-size=2"];

/** One line naming the machine the figures were measured on. */
export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"}, Node ${process.version}`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export interface EmulatorProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `insights-reporter emulator …` in a child process; resolves once it prints its URL. */
export async function startEmulatorProcess(args: string[]): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [CLI, "emulator", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let buffered = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const match = /https?:\/\/\S+\/api\/external\/v1/.exec(buffered);
      if (match) resolve(match[0]);
    });
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

export interface TeamSpec {
  name: string;
  projects: readonly string[];
  /** One previous_day digest per schedule. */
  schedules: readonly string[];
  timezone: string;
}

/** A config for the given teams, a previous_day digest per schedule, each into a Slack channel. */
export function configYaml(
  teams: readonly TeamSpec[],
  concurrency: number,
  options: { charts?: boolean } = {},
): string {
  const lines = [
    "api:",
    "  url: ${INSIGHTS_API_URL}",
    "  key: ${INSIGHTS_API_KEY}",
    `  concurrency: ${concurrency}`,
    "state:",
    "  path: ./data/bench.sqlite",
    "server:",
    "  port: 0",
    "teams:",
  ];
  for (const team of teams) {
    lines.push(
      `  - name: ${team.name}`,
      `    timezone: ${team.timezone}`,
      "    projects:",
      ...team.projects.map((id) => `      - id: ${id}`),
      "    digests:",
      ...team.schedules.flatMap((schedule, i) => [
        `      - name: digest-${i + 1}`,
        `        schedule: "${schedule}"`,
        "        period: previous_day",
        "        catch_up: 6h",
        ...(options.charts ? ["        charts: {}"] : []),
        `        slack: { channel: C0${team.name.toUpperCase().replace(/[^A-Z0-9]/g, "")} }`,
      ]),
    );
  }
  return `${lines.join("\n")}\n`;
}
