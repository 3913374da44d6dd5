import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { CLI, configYaml, DAEMON_NODE_FLAGS, startEmulatorProcess } from "./bench-support.js";

// The daemon at rest: 200 teams with two digests each (400 schedules), none due for months,
// run as `start --outbox` in a process of its own. CPU is read from /proc over a window after
// start-up has settled; resident memory at its end.

export interface IdleFigures {
  schedules: number;
  cpuPercent: number;
  rssMb: number;
  windowS: number;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
  return Number(fields[11]) + Number(fields[12]);
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export async function measureIdle(windowS: number, settleS = 10): Promise<IdleFigures> {
  const emulator = await startEmulatorProcess(["--projects", "12"]);
  const dir = await mkdtemp(join(tmpdir(), "idle-bench-"));
  try {
    const teams = Array.from({ length: 200 }, (_, i) => ({
      name: `team-${i}`,
      projects: ["dlucmsz"],
      // Fires on 1 January and 1 July only: nothing is due, nothing is within catch-up.
      schedules: ["0 3 1 1 *", "0 4 1 7 *"],
      timezone:
        ["Europe/Berlin", "America/New_York", "Pacific/Auckland", "Asia/Tokyo"][i % 4] ?? "",
    }));
    const configPath = join(dir, "idle.yaml");
    await writeFile(configPath, configYaml(teams, 4));
    const child = spawn(
      process.execPath,
      // As the Docker image and the systemd unit start the daemon.
      [...DAEMON_NODE_FLAGS, CLI, "start", "--outbox", join(dir, "outbox"), "--config", configPath],
      {
        cwd: dir,
        env: { ...process.env, INSIGHTS_API_URL: emulator.url, INSIGHTS_API_KEY: "demo-key" },
        stdio: ["ignore", "ignore", "ignore"],
      },
    );
    const pid = child.pid ?? 0;
    await delay(settleS * 1000);
    const before = await cpuTicks(pid);
    await delay(windowS * 1000);
    const after = await cpuTicks(pid);
    const rss = await rssMb(pid);
    child.kill("SIGTERM");
    await once(child, "exit");
    return {
      schedules: 400,
      cpuPercent: ((after - before) / CLOCK_TICKS / windowS) * 100,
      rssMb: rss,
      windowS,
    };
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
