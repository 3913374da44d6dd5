import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import type { ChartData } from "./chart-spec.js";
import type { ChartRequest, ChartWorkerSetup } from "./chart-worker-client.js";
import { chartPainter, parseChart } from "./draw-chart.js";

// The chart worker's entry (a worker thread, started by chart-worker-client.ts): the compiled
// spec read and parsed once, then one painter draws every chart asked of it, in turn, and
// hands each PNG back (its bytes moved, not copied). Vega and resvg live only in this thread,
// so their memory goes with it when it ends.

const setup = workerData as ChartWorkerSetup;
const painter = chartPainter(parseChart(JSON.parse(readFileSync(setup.specFile, "utf8"))), setup);
const port = parentPort;

port?.on("message", async ({ id, data }: ChartRequest & { data: ChartData }) => {
  try {
    const drawn = await painter.draw(data);
    // A copy of the PNG into a buffer this thread owns outright (a Buffer may share its
    // memory with others), so it can be moved.
    const png = new Uint8Array(drawn.png);
    port.postMessage({ id, png, width: drawn.width, height: drawn.height }, [png.buffer]);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
