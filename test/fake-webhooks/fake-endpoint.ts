import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// An HTTP endpoint on 127.0.0.1 that takes POSTs, for the fakes of destinations that are one
// URL (a Teams workflow, a signed webhook): it records every request as it arrives, answers
// through the fake's own check, and fails or stalls on demand like the fake Slack.

export interface ReceivedRequest {
  /** Path and query, as requested. */
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as sent. */
  body: string;
  /** Epoch ms when it arrived. */
  at: number;
  /** The status it was answered with (undefined while held). */
  status?: number;
}

/** What the fake's own check answers: a status and a JSON or text body. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FailOptions {
  /** Seconds in the Retry-After header (429 and 503). */
  retryAfter?: number;
  /** How many requests in a row fail (default 1). */
  times?: number;
}

/** A request held back: recorded and accepted, its answer not sent yet. */
export interface HeldRequest {
  arrived: Promise<ReceivedRequest>;
  release(): void;
  /** Never answers: the sender waits until it gives up, dies, or the fake closes. */
  neverAnswer(): void;
}

export interface FakeEndpoint {
  origin: string;
  requests: ReceivedRequest[];
  failNext(status: number, options?: FailOptions): void;
  holdNext(): HeldRequest;
  close(): Promise<void>;
}

/** Starts an endpoint whose requests `answer` judges, unless a failure or hold is queued. */
export async function startFakeEndpoint(
  answer: (request: ReceivedRequest) => Answer,
): Promise<FakeEndpoint> {
  const failures: { status: number; retryAfter?: number }[] = [];
  const holds: { resolve: (r: ReceivedRequest) => void; gate: Promise<boolean> }[] = [];
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request: ReceivedRequest = {
        path: req.url ?? "/",
        method: req.method ?? "GET",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      requests.push(request);
      const failure = req.method === "POST" ? failures.shift() : undefined;
      if (failure) {
        const headers: Record<string, string> =
          failure.retryAfter === undefined ? {} : { "Retry-After": String(failure.retryAfter) };
        return send(res, request, {
          status: failure.status,
          headers,
          body: failureBody(failure.status),
        });
      }
      const judged = answer(request);
      const hold = req.method === "POST" ? holds.shift() : undefined;
      if (!hold) return send(res, request, judged);
      hold.resolve(request);
      void hold.gate.then((answers) => {
        if (answers) send(res, request, judged);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, options = {}) {
      for (let i = 0; i < (options.times ?? 1); i++) {
        failures.push({ status, retryAfter: options.retryAfter });
      }
    },
    holdNext() {
      let resolve!: (r: ReceivedRequest) => void;
      const arrived = new Promise<ReceivedRequest>((r) => {
        resolve = r;
      });
      let open!: (answers: boolean) => void;
      const gate = new Promise<boolean>((r) => {
        open = r;
      });
      holds.push({ resolve, gate });
      return { arrived, release: () => open(true), neverAnswer: () => open(false) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, request: ReceivedRequest, answer: Answer): void {
  request.status = answer.status;
  if (res.destroyed) return;
  const text =
    answer.body === undefined
      ? ""
      : typeof answer.body === "string"
        ? answer.body
        : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...(typeof answer.body === "object" ? { "Content-Type": "application/json" } : {}),
    ...answer.headers,
  });
  res.end(text);
}

function failureBody(status: number): unknown {
  return { error: { code: `Fake${status}`, message: `the fake answers ${status} on demand` } };
}
