import { parentPort, workerData } from "node:worker_threads";
import { painterOfSpecFiles } from "../render/charts/draw-chart.js";
import type { ChartAnswer, ChartRequest, ChartWorkerSetup } from "./chart-worker-client.js";

// The chart worker's entry (a worker thread, started by chart-worker-client.ts): the compiled
// specs read and parsed once, then one painter draws every chart asked of it, in turn, and
// hands each PNG back (its bytes moved, not copied). Vega and resvg live only in this thread,
// so their memory goes with it when it ends.

const setup = workerData as ChartWorkerSetup;
const painter = painterOfSpecFiles(setup.specFiles, setup);
const port = parentPort;

function answer(message: ChartAnswer, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

port?.on("message", async ({ id, data }: ChartRequest) => {
  try {
    const drawn = await painter.draw(data);
    // A copy of the PNG into a buffer this thread owns outright (a Buffer may share its
    // memory with others), so it can be moved.
    const png = new Uint8Array(drawn.png);
    answer({ id, png, width: drawn.width, height: drawn.height }, [png.buffer]);
  } catch (error) {
    answer({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
