import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

// pg_ctl detaches the server into a session of its own, so neither the end of this process nor
// a Ctrl-C in its terminal reaches it. A crashed or killed test run would leave it running, its
// directory behind: a small shell outlives this process to clean up after it.

/**
 * Once the process with pid $1 is gone, stops the server of data dir $3 with pg_ctl ($4) and
 * removes $2. `kill -0` fails on another user's process, hence /proc as well (Linux).
 */
const SCRIPT = `while kill -0 "$1" 2>/dev/null || [ -d "/proc/$1" ]; do sleep 1; done
"$4" stop -D "$3" -m immediate >/dev/null 2>&1
rm -rf "$2"`;

export interface WatchdogTarget {
  pgCtl: string;
  /** The server's directory, removed after it stops. */
  dir: string;
  data: string;
  /** Run as the server's user, who owns the directory. */
  asServer: { cwd: string; uid?: number; gid?: number };
}

/** Stops the server and removes its directory within a second of this process's death. */
export async function startWatchdog(target: WatchdogTarget): Promise<ChildProcess> {
  const { pgCtl, dir, data, asServer } = target;
  const args = ["-c", SCRIPT, "postgres-watchdog", String(process.pid), dir, data, pgCtl];
  const child = spawn("/bin/sh", args, {
    ...asServer,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    detached: true,
    stdio: "ignore",
  });
  child.unref();
  await once(child, "spawn"); // rejects if it cannot run: better no server than one left behind
  return child;
}
