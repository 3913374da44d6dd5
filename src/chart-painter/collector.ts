import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// V8's collector, called by the chart worker where it knows that much has just died: resvg's
// stripes and their pixel copies are small JavaScript objects over ~1 MB of native memory each,
// which V8, seeing only the objects, collects late (on Node 20 nothing frees them sooner:
// free-bytes.ts). A worker cannot be started with `--expose-gc` (Node refuses it in a worker's
// `execArgv`), so the worker turns the flag on just long enough to take `gc` from a new context,
// then off again: the flag is the process's, and read only when a context is made. Node documents
// changing V8's flags after start-up as unsupported: where it fails, the worker runs without
// collections of its own, as it did before (docs/performance.md, 2026-11-28, the first digest).

/** V8's `gc` as `--expose-gc` gives it: a full collection, or only the young generation's. */
export type Collect = (options?: { type?: "major" | "minor" }) => void;

/** This thread's `gc`, or undefined where it cannot be had. */
export function collectorOfThisThread(): Collect | undefined {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (typeof exposed === "function") return exposed;
  try {
    setFlagsFromString("--expose-gc");
    const taken: unknown = runInNewContext("gc");
    return typeof taken === "function" ? (taken as Collect) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}
