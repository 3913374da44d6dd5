import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A proxy between the reporter and the fake Slack that lets a chosen call land (the fake
 * applies it and answers) and then fails it on the way back: an HTTP 500, or the connection
 * reset. What the reporter sees is a write that failed; what Slack has is a write that landed.
 * Upload URLs in Slack's answers are rewritten to pass through the proxy too, so the upload
 * of a file's bytes can be failed the same way.
 */

/** How a landed call is answered: HTTP 500, or the connection reset with no answer. */
export type LandedFault = "http500" | "reset";

/** A call as the proxy sees it: its method ("upload" for an upload URL) and form fields. */
export interface ProxiedCall {
  method: string;
  params: URLSearchParams;
}

export interface LandingFaultProxy {
  /** Pass as SLACK_API_URL; ends with `/api/`. */
  url: string;
  /** The next call that `matches` lands, then is answered with `fault`; resolves once it was. */
  failAfterLanding(matches: (call: ProxiedCall) => boolean, fault: LandedFault): Promise<void>;
  /**
   * Every call that `matches` is answered with `fault` without reaching Slack (an outage of
   * one kind of call), until the returned function is called.
   */
  refuse(matches: (call: ProxiedCall) => boolean, fault: LandedFault): () => void;
  close(): Promise<void>;
}

interface Armed {
  matches: (call: ProxiedCall) => boolean;
  fault: LandedFault;
  done: () => void;
}

/** Starts a proxy on a free loopback port in front of the fake Slack at `target` (its /api/ URL). */
export async function startLandingFaultProxy(target: string): Promise<LandingFaultProxy> {
  const upstream = new URL(target).origin;
  let origin = "";
  let armed: Armed | null = null;
  const refusing = new Set<Omit<Armed, "done">>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readAll(req);
    const path = req.url ?? "/";
    const method = path.startsWith("/upload/") ? "upload" : path.replace(/^\/api\//, "");
    const form = String(req.headers["content-type"]).startsWith(
      "application/x-www-form-urlencoded",
    );
    const call = { method, params: new URLSearchParams(form ? body.toString() : "") };
    const refused = [...refusing].find((r) => r.matches(call));
    if (refused) return failCall(req, res, refused.fault);
    const answer = await forward(req, path, body);
    const fault = armed?.matches(call) ? armed : null;
    if (fault) {
      armed = null;
      failCall(req, res, fault.fault);
      fault.done();
      return;
    }
    // Upload URLs name the fake's origin; the proxy's takes its place.
    const text = answer.body.toString().replaceAll(upstream, origin);
    const headers = { ...answer.headers };
    delete headers["content-length"];
    delete headers["transfer-encoding"];
    res.writeHead(answer.status, { ...headers, "content-length": Buffer.byteLength(text) });
    res.end(text);
  }

  function failCall(req: IncomingMessage, res: ServerResponse, fault: LandedFault): void {
    if (fault === "reset") req.socket.destroy();
    else res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
  }

  function forward(req: IncomingMessage, path: string, body: Buffer) {
    return new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>(
      (resolve, reject) => {
        const headers = { ...req.headers, host: new URL(upstream).host };
        delete headers["content-length"];
        const out = request(
          `${upstream}${path}`,
          { method: req.method, headers: { ...headers, "content-length": body.length } },
          (answer) => {
            readAll(answer).then(
              (b) =>
                resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: b }),
              reject,
            );
          },
        );
        out.on("error", reject);
        out.end(body);
      },
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api/`,
    failAfterLanding(matches, fault) {
      return new Promise<void>((done) => {
        armed = { matches, fault, done };
      });
    },
    refuse(matches, fault) {
      const refusal = { matches, fault };
      refusing.add(refusal);
      return () => refusing.delete(refusal);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
