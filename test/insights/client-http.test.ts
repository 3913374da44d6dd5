import { Agent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AuthError,
  BaseUrlError,
  InvalidRangeError,
  LookbackError,
  MalformedResponseError,
  ProjectNotFoundError,
  UnknownTimezoneError,
  UpstreamError,
} from "../../src/errors.js";
import { query, rejection, TEST_KEY, testClient } from "./client-builders.js";
import {
  hang,
  json,
  later,
  raw,
  reset,
  type ScriptedServer,
  startScriptedServer,
} from "./scripted-server.js";
import { wireInsights } from "./wire-insights.js";

const OK = json(200, wireInsights("2026-10-29", "2026-11-02"));

let server: ScriptedServer;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  server = await startScriptedServer(OK);
  cleanups.push(() => server.close());
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function client(overrides: Parameters<typeof testClient>[1] = {}) {
  const made = testClient(server.url, overrides);
  cleanups.push(() => made.client.close());
  return made;
}

describe("requests", () => {
  it("sends the key, Accept and the query with timezone always and tags as one comma-separated value", async () => {
    const { client: api } = client();
    await api.getInsights("pdq mx", query({ tags: ["smoke", "e2e"] }));
    const [seen] = server.requests;
    expect(seen?.url).toBe(
      "/api/external/v1/projects/pdq%20mx/insights?start_date=2026-10-29&end_date=2026-11-02&timezone=Europe%2FBerlin&tags=smoke,e2e",
    );
    expect(seen?.headers["x-api-key"]).toBe(TEST_KEY);
    expect(seen?.headers.accept).toBe("application/json");
  });

  it("sends branch and author only when set", async () => {
    const { client: api } = client();
    await api.getInsights("p", query({ branch: "release/1.2", author: "Jo & Co" }));
    const url = new URL(server.requests[0]?.url ?? "", server.origin);
    expect(url.searchParams.get("branch")).toBe("release/1.2");
    expect(url.searchParams.get("author")).toBe("Jo & Co");
    expect(url.searchParams.has("tags")).toBe(false);
  });

  it("maps a 200 to our own types", async () => {
    const { client: api } = client();
    const insights = await api.getInsights("pdqmxlz", query());
    expect(insights.projectId).toBe("pdqmxlz");
    expect(insights.days.map((d) => d.date)).toEqual([
      "2026-10-29",
      "2026-10-30",
      "2026-10-31",
      "2026-11-01",
      "2026-11-02",
    ]);
  });

  it("reuses keep-alive connections rather than opening one per request", async () => {
    const { client: api } = client();
    const ports = new Set<number>();
    server.queue(
      ...Array.from(
        { length: 6 },
        () => (req: Parameters<typeof OK>[0], res: Parameters<typeof OK>[1]) => {
          ports.add(req.socket.remotePort ?? 0);
          OK(req, res);
        },
      ),
    );
    for (let i = 0; i < 6; i++) await api.getInsights("p", query());
    // undici may open a second socket while the first finishes its response; never six.
    expect(ports.size).toBeLessThanOrEqual(2);
  });
});

describe("redirects", () => {
  it("does not follow a redirect and says the URL is probably wrong", async () => {
    const elsewhere = await startScriptedServer(OK);
    cleanups.push(() => elsewhere.close());
    server.queue(raw(302, "", { location: `${elsewhere.url}/projects/p/insights` }));
    const { client: api, sleeps } = client();
    const error = await rejection(api.getInsights("p", query()));
    expect(error).toBeInstanceOf(BaseUrlError);
    expect(error.message).toContain(
      "INSIGHTS_API_URL redirected to another place — use the workspace's own https URL",
    );
    expect((error as BaseUrlError).context).toMatchObject({
      status: 302,
      path: "/projects/p/insights",
    });
    expect(elsewhere.requests).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe("retries", () => {
  it("backs off exponentially with full jitter on 500, 502 and 504", async () => {
    server.queue(json(500, {}), json(502, {}), json(504, {}));
    const { client: api, sleeps, requests } = client();
    await api.getInsights("p", query());
    // random() = 0.5 → half of 500, 1000, 2000 ms.
    expect(sleeps).toEqual([250, 500, 1000]);
    expect(requests.map((r) => [r.status, r.attempt])).toEqual([
      [500, 1],
      [502, 2],
      [504, 3],
      [200, 4],
    ]);
  });

  it("honours Retry-After in seconds even beyond the backoff cap", async () => {
    server.queue(json(429, { error: "slow down" }, { "retry-after": "120" }));
    const { client: api, sleeps } = client();
    await api.getInsights("p", query());
    expect(sleeps).toEqual([120_000]);
  });

  it("measures a Retry-After HTTP-date against the injected clock", async () => {
    server.queue(json(503, {}, { "retry-after": "Mon, 02 Nov 2026 10:00:45 GMT" }));
    const { client: api, sleeps } = client({ now: () => Date.parse("2026-11-02T10:00:00Z") });
    await api.getInsights("p", query());
    expect(sleeps).toEqual([45_000]);
  });

  it("gives up rather than wait out a Retry-After of more than five minutes", async () => {
    server.queue(json(429, {}, { "retry-after": "3600" }));
    const { client: api, sleeps } = client();
    const error = await rejection(api.getInsights("p", query()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain("asked to wait 3600s");
    expect(sleeps).toEqual([]);
  });

  it("stops after maxAttempts with an UpstreamError carrying attempts, status and path", async () => {
    const { client: api, sleeps } = client({ maxAttempts: 3 });
    server.queue(json(503, {}), json(503, {}), json(503, {}));
    const error = await rejection(api.getInsights("p", query()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).context).toEqual({
      status: 503,
      path: "/projects/p/insights",
      attempts: 3,
    });
    expect(error.message).toContain("tried 3 times");
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it("says to lower the concurrency when 429s outlast the attempts", async () => {
    server.queue(json(429, {}), json(429, {}));
    const { client: api } = client({ maxAttempts: 2 });
    const error = await rejection(api.getInsights("p", query()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain("lower api.concurrency");
  });

  it("retries a connection reset", async () => {
    server.queue(reset);
    const { client: api, requests } = client();
    await api.getInsights("p", query());
    expect(requests.map((r) => r.status)).toEqual(["error", 200]);
  });

  it("reports resets after the last attempt as UpstreamError", async () => {
    server.queue(reset, reset);
    const { client: api } = client({ maxAttempts: 2 });
    const error = await rejection(api.getInsights("p", query()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).context).toMatchObject({
      attempts: 2,
      path: "/projects/p/insights",
    });
  });

  it("times out a request that never answers, retries it, then reports a timeout", async () => {
    server.queue(hang, hang);
    const { client: api, requests } = client({ timeoutMs: 150, maxAttempts: 2 });
    const error = await rejection(api.getInsights("p", query()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain("did not answer GET /projects/p/insights in time");
    expect(requests.map((r) => r.status)).toEqual(["error", "error"]);
  });

  it("times out a body that stalls halfway", async () => {
    server.queue((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"start_date":');
    });
    const { client: api, requests } = client({ timeoutMs: 150 });
    await api.getInsights("p", query());
    expect(requests.map((r) => r.status)).toEqual(["error", 200]);
  });

  it.each([400, 401, 403, 404])("never retries %i", async (status) => {
    server.queue(json(status, { error: "no" }));
    const { client: api, sleeps } = client();
    await expect(api.getInsights("p", query())).rejects.toThrow();
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("does not retry a refused connection and names the host to check", async () => {
    const closed = await startScriptedServer();
    const url = closed.url;
    await closed.close();
    const made = testClient(url);
    cleanups.push(() => made.client.close());
    const error = await rejection(made.client.getInsights("p", query()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/could not connect to 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(made.sleeps).toEqual([]);
  });
});

describe("error mapping", () => {
  it("maps 401 to AuthError with status and path", async () => {
    server.queue(json(401, { error: "Could not authenticate, invalid API Key" }));
    const error = await rejection(client().client.getInsights("p", query()));
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).context).toMatchObject({
      status: 401,
      path: "/projects/p/insights",
    });
    expect(error.message).toContain("check INSIGHTS_API_KEY");
  });

  it("maps the lookback 400 to LookbackError with the earliest date from the message", async () => {
    server.queue(
      json(400, {
        error:
          "Insights are available only for the most recent 3 months. Use a date range starting on or after 2026-08-02",
      }),
    );
    const error = await rejection(
      client().client.getInsights("p", query({ startDate: "2026-01-01" })),
    );
    expect(error).toBeInstanceOf(LookbackError);
    expect((error as LookbackError).earliestDate).toBe("2026-08-02");
  });

  it("maps 'Invalid date range format' to InvalidRangeError", async () => {
    server.queue(json(400, { error: "Invalid date range format" }));
    const error = await rejection(client().client.getInsights("p", query()));
    expect(error).toBeInstanceOf(InvalidRangeError);
    expect(error.message).toContain("2026-10-29 to 2026-11-02");
  });

  it("maps the timezone 400 to UnknownTimezoneError naming the zone and an IANA example", async () => {
    server.queue(
      json(400, { error: "Timezone Mars/Olympus is not recognised, use a valid IANA name" }),
    );
    const error = await rejection(
      client().client.getInsights("p", query({ timezone: "Mars/Olympus" })),
    );
    expect(error).toBeInstanceOf(UnknownTimezoneError);
    expect(error.message).toContain('"Mars/Olympus"');
    expect(error.message).toContain("IANA name like Europe/Berlin");
  });

  it.each([404, 403, 422])("maps %i on insights to ProjectNotFoundError", async (status) => {
    server.queue(json(status, { error: "Not found" }));
    const error = await rejection(client().client.getInsights("nope", query()));
    expect(error).toBeInstanceOf(ProjectNotFoundError);
    expect((error as ProjectNotFoundError).projectId).toBe("nope");
    expect((error as ProjectNotFoundError).context).toMatchObject({
      status,
      path: "/projects/nope/insights",
    });
  });

  it("maps a 404 on the project list to an UpstreamError that points at the URL", async () => {
    server.queue(raw(404, "Not Found"));
    const error = await rejection(client().client.listProjects());
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain("check that INSIGHTS_API_URL");
  });

  it("maps a body that is not JSON to MalformedResponseError, once retries are spent", async () => {
    const signIn = raw(200, "<html>Sign in</html>", { "content-type": "text/html" });
    server.queue(signIn, signIn);
    const error = await rejection(client({ maxAttempts: 2 }).client.getInsights("p", query()));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain(
      'not JSON for project "p" (GET /projects/p/insights, tried 2 times)',
    );
  });

  it("maps a wrong-shaped body to MalformedResponseError naming the field", async () => {
    const body = wireInsights("2026-10-29", "2026-11-02");
    (body.runs.runs_volume_data[3] as Record<string, unknown>).passed_runs_count = "many";
    server.queue(json(200, body));
    const error = await rejection(client({ maxAttempts: 1 }).client.getInsights("p", query()));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain("runs.runs_volume_data[3].passed_runs_count: expected number");
    expect((error as MalformedResponseError).context).toMatchObject({
      field: "runs.runs_volume_data[3].passed_runs_count",
      path: "/projects/p/insights",
    });
  });

  it("refuses a bad base URL before any request", () => {
    expect(() => testClient("https://{workspace}.testinsights.io/api/external/v1")).toThrow(
      BaseUrlError,
    );
  });
});

describe("listProjects", () => {
  const page = (ids: string[], pageNumber: number | null, totalPages: number | null) =>
    json(200, {
      projects: ids.map((id) => ({ id, name: `Project ${id}` })),
      ...(totalPages === null
        ? {}
        : {
            pagination: {
              total_records: 0,
              current_page_number: pageNumber,
              total_pages: totalPages,
              page_size: 100,
            },
          }),
    });

  it("reads every page with page_size 100 until the last page", async () => {
    server.queue(page(["a", "b"], 1, 3), page(["c"], 2, 3), page(["d"], 3, 3));
    const projects = await client().client.listProjects();
    expect(projects.map((p) => p.id)).toEqual(["a", "b", "c", "d"]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/api/external/v1/projects?page_number=1&page_size=100",
      "/api/external/v1/projects?page_number=2&page_size=100",
      "/api/external/v1/projects?page_number=3&page_size=100",
    ]);
  });

  it("stops at an empty array when there is no pagination object", async () => {
    server.queue(page(["a"], null, null), page(["b"], null, null), page([], null, null));
    const projects = await client().client.listProjects();
    expect(projects).toEqual([
      { id: "a", name: "Project a" },
      { id: "b", name: "Project b" },
    ]);
    expect(server.requests).toHaveLength(3);
  });
});

describe("concurrency", () => {
  it("keeps at most `concurrency` requests in flight across all calls", async () => {
    // A roomy dispatcher, so the limit seen is the client's own, not the pool's.
    const agent = new Agent({ connections: 50 });
    cleanups.push(() => agent.close());
    server.queue(...Array.from({ length: 12 }, () => later(30, OK)));
    const { client: api } = client({ concurrency: 3, dispatcher: agent });
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => api.getInsights(`p${i}`, query())),
      api.listProjects().catch(() => []),
    ]);
    expect(server.requests.length).toBeGreaterThanOrEqual(11);
    expect(server.inFlight.max).toBe(3);
  });
});

describe("close", () => {
  it("refuses requests after close and can be called twice", async () => {
    const { client: api } = client();
    await api.getInsights("p", query());
    await api.close();
    await api.close();
    await expect(api.getInsights("p", query())).rejects.toThrow(/closed/);
  });
});
