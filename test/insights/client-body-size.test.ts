import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ProjectNotFoundError, UpstreamError } from "../../src/errors.js";
import { query, rejection, testClient } from "./client-builders.js";
import { type Reply, startScriptedServer } from "./scripted-server.js";

/**
 * A response body is read only up to api.max_response_bytes: a 200 MB body took the process
 * to 766 MB, a 600 MB one dropped the project with ERR_STRING_TOO_LONG.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CHUNK = Buffer.alloc(64 * 1024, "7");
const LIMIT = 1_000_000;

/** What the endless server has written, and a promise of the moment it stopped writing. */
interface Sent {
  bytes: number;
  stopped?: Promise<void>;
}

/** Streams a 200 (or `status`) of `total` bytes (chunked) until done or the client hangs up. */
function endless(total: number, sent: Sent, status = 200): Reply {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.write("[");
    sent.stopped = pump(res, total, sent);
  };
}

async function pump(res: ServerResponse, total: number, sent: { bytes: number }): Promise<void> {
  while (sent.bytes < total && !res.destroyed) {
    sent.bytes += CHUNK.length;
    if (!res.write(CHUNK)) {
      // Whichever comes first; the other listener goes too, or every wait would leave one.
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.once("drain", done);
        res.once("close", done);
      });
    }
  }
  if (!res.destroyed) res.end("]");
}

async function serve(reply: Reply) {
  const server = await startScriptedServer(reply);
  cleanups.push(() => server.close());
  const made = testClient(server.url, { maxResponseBytes: LIMIT });
  cleanups.push(() => made.client.close());
  return { server, ...made };
}

describe("the response size cap", () => {
  it("stops reading a streamed body past the cap and names the setting to raise", async () => {
    const sent: Sent = { bytes: 0 };
    const { client, server } = await serve(endless(200_000_000, sent));
    const error = await rejection(client.getInsights("pdqmxlz", query()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toBe(
      'the insights API sent more than 1000000 bytes for project "pdqmxlz" (GET /projects/pdqmxlz/insights) — reading stopped there; if the range really is that large, raise api.max_response_bytes (now 1000000)',
    );
    expect((error as UpstreamError).context).toMatchObject({
      path: "/projects/pdqmxlz/insights",
      maxResponseBytes: LIMIT,
    });
    // Not retried: the same request would bring the same body.
    expect(server.requests).toHaveLength(1);
    // The connection was dropped, not drained: once the server saw it close and stopped
    // writing, it had sent far short of 200 MB.
    await sent.stopped;
    expect(sent.bytes).toBeLessThan(50_000_000);
  });

  it("refuses a declared Content-Length past the cap before reading any of it", async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": 600_000_000 });
      res.write("[");
    });
    const error = await rejection(client.listProjects());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain(
      "the insights API sent more than 1000000 bytes for GET /projects",
    );
    expect(error.message).toContain("raise api.max_response_bytes");
  });

  it("reads a body of exactly the cap", async () => {
    const body = JSON.stringify({ projects: [], pad: "x".repeat(LIMIT - 24) });
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
    expect(await client.listProjects()).toEqual([]);
  });

  it("stops at the cap of a body that arrives whole on a closing connection, and reads on", async () => {
    // The whole answer in one write, then the connection closes: the reading stops mid-chunk,
    // and the rest of that chunk must not reach the answer already given up.
    let calls = 0;
    const { client } = await serve((_req, res) => {
      calls++;
      const body =
        calls === 1
          ? JSON.stringify({ projects: [], pad: "x".repeat(LIMIT) })
          : JSON.stringify({ projects: [] });
      res.writeHead(200, { "content-type": "application/json", connection: "close" });
      res.end(body);
    });
    const error = await rejection(client.listProjects());
    expect(error.message).toContain("raise api.max_response_bytes");
    expect(await client.listProjects()).toEqual([]);
  });

  it("quotes an error's body that arrives whole past its few KiB on a closing connection", async () => {
    const { client } = await serve((_req, res) => {
      const body = JSON.stringify({ error: `Project not found ${"x".repeat(20_000)}` });
      res.writeHead(404, { "content-type": "application/json", connection: "close" });
      res.end(body);
    });
    expect(await rejection(client.getInsights("pdqmxlz", query()))).toBeInstanceOf(
      ProjectNotFoundError,
    );
    expect(await rejection(client.getInsights("pdqmxlz", query()))).toBeInstanceOf(
      ProjectNotFoundError,
    );
  });

  it("keeps the connection for the retry of an error whose body is past its few KiB", async () => {
    // A proxy's 503 page is often 5–10 KB: quoting 4 KiB of it must not cost each retry a new
    // connection (and, over TLS, a new handshake) while the API is under pressure.
    const page = `<html>${"x".repeat(6_000)}</html>`;
    const { client, server } = await serve((_req, res) => {
      res.writeHead(503, { "content-type": "text/html", "content-length": page.length });
      res.end(page);
    });
    const error = await rejection(client.getInsights("pdqmxlz", query()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(server.requests.length).toBeGreaterThan(1);
    expect(server.connections()).toBe(1);
  });

  it("reads no more than a few KiB of an error's body: the status decides", async () => {
    const sent: Sent = { bytes: 0 };
    const { client, server } = await serve(endless(200_000_000, sent, 404));
    const error = await rejection(client.getInsights("pdqmxlz", query()));
    expect(error).toBeInstanceOf(ProjectNotFoundError);
    expect(server.requests).toHaveLength(1);
    // Dropped after 4 KiB, far short of the 1 MB a data body may have (the socket buffers aside):
    // once the server saw the connection close and stopped writing.
    await sent.stopped;
    expect(sent.bytes).toBeLessThan(50_000_000);
  });
});
