import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { UsageError } from "../../errors.js";
import { isIsoDate } from "../../periods/calendar-date.js";
import {
  API_PREFIX,
  answerRequest,
  type EmulatorAnswer,
  type EmulatorContext,
} from "./answer-request.js";
import { createEmulatorProjects, todayResolver } from "./emulator-projects.js";
import type { EmulatorProject, LoggedRequest } from "./emulator-types.js";
import { FaultPlan, parseFaultSpec } from "./fault-plan.js";
import { answerUnderFault } from "./fault-responses.js";
import { memoizeDayStart } from "./memoize-day-start.js";

export type {
  EmulatorProject,
  EmulatorRun,
  EmulatorTestResults,
  LoggedRequest,
} from "./emulator-types.js";
export { emulatorProjectIds } from "./project-catalog.js";

export interface EmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** The only API key accepted; default "demo-key". */
  key?: string;
  /** ISO date treated as today in every zone; else derived from `now()`. */
  today?: string;
  now?: () => Date;
  /** Default 6. */
  projects?: number;
  /** Default "demo". */
  seed?: string | number;
  /** How long every answer takes, its work included (the work runs during it). */
  latencyMs?: number;
  /** Fault spec, see `fault-plan.ts`, e.g. "429:0.1,503:0.05,reset:0.02,retry-after=2". */
  faults?: string;
  /** Requests accepted in any 60 s; past it a 429 with Retry-After, as a hosted API answers. Default: no limit. */
  maxRequestsPerMinute?: number;
}

export interface RunningEmulator {
  /** Base URL ending in /api/external/v1. */
  url: string;
  projects: readonly EmulatorProject[];
  requestLog: LoggedRequest[];
  /** When each request of `requestLog` arrived (epoch ms, the emulator's clock), in the same order. */
  arrivals: number[];
  /** Forces exact faults for the next requests, in order; see `fault-plan.ts` for the kinds. */
  queueFaults(kinds: string[]): void;
  close(): Promise<void>;
}

/** Starts a local insights API over seeded synthetic data. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = String(options.seed ?? "demo");
  const now = options.now ?? (() => new Date());
  const count = options.projects ?? 6;
  if (!Number.isInteger(count) || count < 0)
    throw new UsageError(`projects must be a whole number, not ${count}`);
  if (options.today !== undefined && !isIsoDate(options.today)) {
    throw new UsageError(`today must be a date like 2026-11-16, not "${options.today}"`);
  }
  const key = options.key ?? "demo-key";
  const latencyMs = options.latencyMs ?? 0;
  const faults = new FaultPlan(parseFaultSpec(options.faults ?? ""), seed);
  const todayIn = todayResolver(options.today, now);
  const projects = createEmulatorProjects(seed, count, () => todayIn("Etc/UTC"));
  const byId = new Map(projects.map((p) => [p.id, p]));
  const context: EmulatorContext = {
    key,
    projects,
    todayIn,
    findProject: (id) => byId.get(id),
    dayStart: memoizeDayStart(),
  };
  const requestLog: LoggedRequest[] = [];
  const arrivals: number[] = [];
  const limit = options.maxRequestsPerMinute ?? null;
  // The arrivals of the last minute that were let through, oldest first.
  const accepted: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) if (!(name in query)) query[name] = value;
    const apiKey = header(req, "x-api-key");
    const entry: LoggedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query,
      status: 0,
      hadKey: apiKey !== undefined,
    };
    requestLog.push(entry);
    const arrivedAt = now().getTime();
    arrivals.push(arrivedAt);
    if (limit !== null) {
      while (accepted.length > 0 && (accepted[0] as number) <= arrivedAt - 60_000) accepted.shift();
      if (accepted.length >= limit) {
        const retryAfterS = Math.ceil(((accepted[0] as number) + 60_000 - arrivedAt) / 1000);
        entry.status = 429;
        entry.fault = "rate-limit";
        send(res, {
          status: 429,
          body: { error: "Too many requests" },
          operation: null,
          headers: { "retry-after": String(Math.max(1, retryAfterS)) },
        });
        return;
      }
      accepted.push(arrivedAt);
    }
    const realAnswer = () =>
      answerRequest(
        {
          method: entry.method,
          pathname: url.pathname,
          query,
          apiKey,
          accept: header(req, "accept"),
        },
        context,
      );
    // The latency is how long an answer takes: it is worked out while the latency runs, as a
    // server does its work within its response time, so a 28-day window is no slower than a
    // day, and one answer's work never holds back another's send.
    const due = performance.now() + latencyMs;
    const prepared = latencyMs > 0 ? realAnswer() : null;
    if (latencyMs > 0) await wait(Math.max(0, due - performance.now()));
    const fault = faults.next();
    if (fault) entry.fault = fault.kind;
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "slow") await wait(fault.slowMs);
    const answer = fault
      ? answerUnderFault(fault, now(), () => prepared ?? realAnswer())
      : (prepared ?? realAnswer());
    entry.status = answer.status;
    send(res, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // A bug in the emulator must surface in the test that hit it, not hang it.
      if (!res.headersSent)
        send(res, { status: 500, body: { error: "Emulator failure" }, operation: null });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}${API_PREFIX}`,
    projects,
    requestLog,
    arrivals,
    queueFaults: (kinds) => faults.queue(kinds),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function send(res: ServerResponse, answer: EmulatorAnswer): void {
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...answer.headers,
  });
  res.end(text);
}
