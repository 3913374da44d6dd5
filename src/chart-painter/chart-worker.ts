import { parentPort, workerData } from "node:worker_threads";
import { painterOfSpecFiles } from "../render/charts/draw-chart.js";
import type { ChartAnswer, ChartRequest, ChartWorkerSetup } from "./chart-worker-client.js";
import { collectorOfThisThread } from "./collector.js";
import { lowerDrawingPriority } from "./drawing-priority.js";

// The chart worker's entry (a worker thread, started by chart-worker-client.ts): the compiled
// specs read and parsed once, then one painter draws every chart asked of it, in turn, and
// hands each PNG back (its bytes moved, not copied). Vega and resvg live only in this thread,
// so their memory goes with it when it ends.
//
// Collections of its own (collector.ts), where much has just died: the young generation after
// each stripe (its pixels and pixmap, ~2 MB a stripe, freed before the next is drawn, ~1 ms);
// a full one once Vega is loaded, and each time the worker has nothing left to draw (a digest's
// charts all answered, so it delays none of them). Measured on Node 20 (docs/performance.md,
// 2026-11-28, the first digest within 50 MB): the first digest's peak +55.2 → +47.8 MB (medians
// of 14); either kind alone gained at most 2 MB, and a full collection after every chart cost
// 15 ms a chart.

lowerDrawingPriority();
const setup = workerData as ChartWorkerSetup;
const collect = collectorOfThisThread();
const painter = painterOfSpecFiles(setup.specFiles, setup, {
  betweenStripes: collect && (() => collect({ type: "minor" })),
});
const port = parentPort;
// What loading Vega and the worker's start-up left behind.
collect?.();

/** Draws asked of the worker and not yet answered. */
let drawing = 0;

function answer(message: ChartAnswer, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

port?.on("message", async ({ id, data }: ChartRequest) => {
  drawing++;
  try {
    const drawn = await painter.draw(data);
    // A copy of the PNG into a buffer this thread owns outright (a Buffer may share its
    // memory with others), so it can be moved.
    const png = new Uint8Array(drawn.png);
    answer({ id, png, width: drawn.width, height: drawn.height }, [png.buffer]);
  } catch (error) {
    answer({ id, error: error instanceof Error ? error.message : String(error) });
  } finally {
    drawing--;
    // Nothing left to draw: collect what the charts left, once the answer has gone and unless
    // another draw has come in meanwhile.
    if (drawing === 0 && collect) {
      setImmediate(() => {
        if (drawing === 0) collect();
      });
    }
  }
});
