import { setPriority } from "node:os";

// The chart worker draws at a lower priority than the rest of the daemon. Drawing is a cycle's
// heaviest work (some 130 ms of CPU a digest with charts) and nothing waits on a chart but its
// own digest, while the main thread hands each answer's slot to the next request: on a host
// short of cores, a worker at the main thread's priority delays the requests of every digest
// behind it. Measured in docs/performance.md (2026-11-28, the cycle's ratio to its bound).

/** The nice value the chart worker takes: below the rest of the daemon, never starved. */
export const DRAWING_NICE = 10;

/**
 * Lowers the priority of the calling thread only, where the system allows that: on Linux a
 * thread has a nice value of its own (`setpriority` of pid 0 is the calling thread's); elsewhere
 * it would lower the whole process, so it is left as is. A system that refuses leaves the
 * thread as it was. Returns whether it was lowered.
 */
export function lowerDrawingPriority(platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== "linux") return false;
  try {
    setPriority(DRAWING_NICE);
    return true;
  } catch {
    return false;
  }
}
