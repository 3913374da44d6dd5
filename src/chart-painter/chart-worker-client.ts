import { type ResourceLimits, Worker } from "node:worker_threads";
import type { ChartData, ChartSpecName } from "../render/charts/chart-spec.js";
import type { ChartPainter, DrawnChart, DrawOptions } from "../render/charts/draw-chart.js";

// Charts drawn in a worker thread: the data goes in by message, the PNG comes back moved, and
// the daemon's event loop keeps serving fetches and Slack while a digest's charts are drawn.
// One worker serves every digest while charts keep being asked for, and ends once it has been
// idle a while, so Vega, resvg and the native buffers they free late leave the process
// between runs. A worker that dies or stops answering fails the draws it had (the digest goes
// out without its charts, as when a chart cannot be drawn); the next draw starts a new one.
// Once closed, it starts nothing more: a draw after `close` fails.

/** What the worker is started with: the compiled specs' files and how to draw. */
export interface ChartWorkerSetup extends DrawOptions {
  specFiles: Readonly<Record<ChartSpecName, string>>;
}

/** A draw asked of the worker: the chart's data; its answer carries the same id. */
export interface ChartRequest {
  id: number;
  data: ChartData;
}

/** The worker's answer to a request: the chart's PNG (its bytes moved), or why it could not be drawn. */
export type ChartAnswer =
  | { id: number; png: Uint8Array; width: number; height: number }
  | { id: number; error: string };

export interface ChartWorkerOptions {
  /** The worker's entry: the compiled chart-worker.js. */
  entry: URL;
  setup: ChartWorkerSetup;
  /** How long the worker is kept with nothing to draw before it is ended. */
  idleMs: number;
  /** How long a worker with draws outstanding may go without answering one before it is ended as hung. */
  hungAfterMs: number;
  resourceLimits?: ResourceLimits;
  /** Told each time a worker ends, and why: idle, closed, or failed (died or hung). */
  onEnd?: (reason: string) => void;
}

/**
 * A painter with an owner, who ends it with `close`: a chart worker (`close` ends the worker
 * and fails the draws it had), or this thread (nothing to end).
 */
export interface OwnedChartPainter extends ChartPainter {
  /** Whether a worker thread of this painter is running now (it ends when idle; never, in this thread). */
  readonly running: boolean;
  close(): Promise<void>;
}

/** A chart the worker could not draw, or a worker that died or hung with draws outstanding. */
export class ChartWorkerError extends Error {
  override readonly name = "ChartWorkerError";
}

/** Why a draw after `close` fails. */
export const CHART_WORKER_CLOSED = "the chart worker was closed";

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

interface Outstanding {
  resolve(drawn: DrawnChart): void;
  reject(error: Error): void;
}

/** A chart painter backed by one worker thread, started on the first draw and ended when idle. */
export function chartWorker(options: ChartWorkerOptions): OwnedChartPainter {
  let worker: Worker | null = null;
  let closed = false;
  let nextId = 1;
  const outstanding = new Map<number, Outstanding>();
  let idleTimer: NodeJS.Timeout | null = null;
  let hungTimer: NodeJS.Timeout | null = null;

  function start(): Worker {
    const started = new Worker(options.entry, {
      workerData: options.setup,
      // None of the process's preloads (`--import`, `--require`: a TypeScript loader, an APM
      // agent): the worker runs only the package's own JavaScript, and each would cost it memory.
      execArgv: [],
      resourceLimits: options.resourceLimits,
    });
    started.on("message", (answer: ChartAnswer) => answered(started, answer));
    started.on("error", (error) => ended(started, `the chart worker failed: ${error.message}`));
    started.on("exit", (code) => ended(started, `the chart worker exited (code ${code})`));
    return started;
  }

  function answered(from: Worker, answer: ChartAnswer): void {
    if (from !== worker) return;
    const waiting = outstanding.get(answer.id);
    outstanding.delete(answer.id);
    if ("error" in answer) waiting?.reject(new ChartWorkerError(answer.error));
    else {
      const png = Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength);
      waiting?.resolve({ png, width: answer.width, height: answer.height });
    }
    watch();
  }

  /** The worker is gone: whatever it had is failed, and the next draw starts a new one. */
  function ended(which: Worker, reason: string): void {
    if (which !== worker) return;
    worker = null;
    failAll(reason);
    watch();
    options.onEnd?.(reason);
  }

  function failAll(reason: string): void {
    const failed = [...outstanding.values()];
    outstanding.clear();
    for (const waiting of failed) waiting.reject(new ChartWorkerError(reason));
  }

  /**
   * Re-arms the timers after every change: with draws outstanding, the worker holds the
   * process open and must answer within `hungAfterMs`; with none, it lets the process exit
   * and is ended after `idleMs`.
   */
  function watch(): void {
    if (idleTimer) clearTimeout(idleTimer);
    if (hungTimer) clearTimeout(hungTimer);
    idleTimer = hungTimer = null;
    if (!worker) return;
    if (outstanding.size > 0) {
      worker.ref();
      const hung = worker;
      hungTimer = setTimeout(() => {
        if (hung !== worker) return;
        const reason = `the chart worker did not answer within ${options.hungAfterMs} ms`;
        worker = null;
        failAll(reason);
        void hung.terminate().then(() => options.onEnd?.(reason));
      }, options.hungAfterMs);
      return;
    }
    worker.unref();
    const idle = worker;
    idleTimer = setTimeout(() => {
      if (idle !== worker) return;
      worker = null;
      void idle.terminate().then(() => options.onEnd?.("idle"));
    }, options.idleMs);
    idleTimer.unref();
  }

  return {
    get running() {
      return worker !== null;
    },
    draw(data: ChartData): Promise<DrawnChart> {
      if (closed) return Promise.reject(new ChartWorkerError(CHART_WORKER_CLOSED));
      worker ??= start();
      const id = nextId++;
      const drawn = new Promise<DrawnChart>((resolve, reject) => {
        outstanding.set(id, { resolve, reject });
      });
      try {
        const request: ChartRequest = { id, data };
        worker.postMessage(request);
      } catch (error) {
        // Data that cannot be cloned (a function in it): this draw fails, and nothing of it is
        // left waiting for an answer that will never come.
        const refused = outstanding.get(id);
        outstanding.delete(id);
        refused?.reject(
          new ChartWorkerError(
            `the chart could not be sent to the chart worker: ${messageOf(error)}`,
          ),
        );
        if (outstanding.size === 0) watch();
        return drawn;
      }
      // The hung clock runs from the last answer (or the first draw), not from each new draw.
      if (outstanding.size === 1) watch();
      return drawn;
    },
    async close() {
      closed = true;
      const closing = worker;
      worker = null;
      failAll(CHART_WORKER_CLOSED);
      watch();
      if (!closing) return;
      await closing.terminate();
      options.onEnd?.("closed");
    },
  };
}
