import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, type Dispatcher } from "undici";
import type { VirtualTime } from "./virtual-time.js";
import { wireInsights } from "./wire-insights.js";

/**
 * A fake insights API that allows `perMinute` requests in any 60 s of `time` and refuses the
 * rest with 429 and a Retry-After, counting both. Optionally it refuses the request numbered
 * `refuseAt` (1-based) once with 429 `Retry-After: refuseForS`, whatever the rate.
 */
export async function startRateLimitedApi(
  time: VirtualTime,
  options: {
    perMinute: number;
    projects?: number;
    refuse?: { at: number; forS: number };
    headers?: (arrivals: number) => Record<string, string>;
  },
) {
  const arrivals: { at: number; path: string; status: number }[] = [];
  const server = createServer((req, res) => {
    const at = time.now();
    const path = req.url ?? "";
    const recent = arrivals.filter((a) => a.status !== 429 && a.at > at - 60_000).length;
    const scripted = options.refuse && arrivals.length + 1 === options.refuse.at;
    const extra = options.headers?.(arrivals.length + 1) ?? {};
    if (scripted || recent >= options.perMinute) {
      arrivals.push({ at, path, status: 429 });
      const wait = scripted ? (options.refuse?.forS ?? 1) : 60;
      res.writeHead(429, {
        "content-type": "application/json",
        "retry-after": String(wait),
        ...extra,
      });
      res.end(JSON.stringify({ error: "Too many requests" }));
      return;
    }
    arrivals.push({ at, path, status: 200 });
    res.writeHead(200, { "content-type": "application/json", ...extra });
    if (path.includes("/projects?")) {
      const count = options.projects ?? 0;
      const projects = Array.from({ length: count }, (_, i) => ({ id: `p${i}`, name: `P ${i}` }));
      res.end(
        JSON.stringify({
          projects,
          pagination: {
            total_records: count,
            total_pages: 1,
            current_page_number: 1,
            page_size: 100,
          },
        }),
      );
      return;
    }
    const url = new URL(path, "http://x");
    const start = url.searchParams.get("start_date") ?? "2026-11-01";
    const end = url.searchParams.get("end_date") ?? "2026-11-01";
    res.end(JSON.stringify(wireInsights(start, end)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAliveTimeout: 1_000 });
  return {
    url: `http://127.0.0.1:${port}/api/external/v1`,
    arrivals,
    /** A dispatcher that holds `time` still from the request's start until its answer's headers. */
    dispatcher: holdingDispatcher(agent, time),
    /** The most requests that arrived (refused ones too) within any 60 s. */
    busiestMinute(): number {
      const ok = arrivals.map((a) => a.at);
      let most = 0;
      for (const [i, start] of ok.entries()) {
        most = Math.max(most, ok.slice(i).filter((at) => at < start + 60_000).length);
      }
      return most;
    },
    async close() {
      await agent.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function holdingDispatcher(agent: Agent, time: VirtualTime): Dispatcher {
  return {
    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      time.hold();
      let held = true;
      const release = () => {
        if (held) time.release();
        held = false;
      };
      return agent.dispatch(options, {
        onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
        onResponseStart: (controller, status, headers, message) => {
          release();
          handler.onResponseStart?.(controller, status, headers, message);
        },
        onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
        onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
        onResponseError: (controller, error) => {
          release();
          handler.onResponseError?.(controller, error);
        },
      });
    },
  } as unknown as Dispatcher;
}
