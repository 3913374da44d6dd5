import { readFile } from "node:fs/promises";

// A process's resident memory and CPU time as Linux reports them in /proc: read from outside,
// so the figures are the process's own, with nothing of the reader's in them.

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** Resident set size (VmRSS) of `pid`, in bytes. */
export async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** CPU time `pid` has used, user and system, in seconds. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
