import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { withProjectListCache } from "../../src/insights/cached-project-list.js";
import type { InsightsApi, ProjectSummary } from "../../src/insights/types.js";
import { TEST_KEY, testClient } from "./client-builders.js";
import { type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const HOUR = 3_600_000;

function countingApi(projects: ProjectSummary[]) {
  const calls = { lists: 0 };
  const api: InsightsApi = {
    getInsights: () => Promise.reject(new Error("not asked")),
    listProjects: async () => {
      calls.lists++;
      return [...projects];
    },
  };
  return { api, calls, projects };
}

describe("the project list across ticks", () => {
  it("is fetched once an hour, and again when a project it does not list is asked for", async () => {
    let now = Date.parse("2026-11-02T10:00:00Z");
    const { api, calls, projects } = countingApi([{ id: "a", name: "A" }]);
    const cached = withProjectListCache(api, { now: () => now });
    expect(await cached.listProjects({ including: ["a"] })).toEqual([{ id: "a", name: "A" }]);
    now += 59 * 60_000;
    await cached.listProjects({ including: ["a"] });
    expect(calls.lists).toBe(1);

    // A project added to the config (and the workspace): the list is fetched again for it.
    projects.push({ id: "b", name: "B" });
    expect(await cached.listProjects({ including: ["a", "b"] })).toHaveLength(2);
    expect(calls.lists).toBe(2);
    // An id the API does not know does not refetch on every tick.
    now += 10_000;
    await cached.listProjects({ including: ["nope"] });
    now += 10_000;
    await cached.listProjects({ including: ["nope"] });
    expect(calls.lists).toBe(2);

    now += HOUR;
    await cached.listProjects({ including: ["a"] });
    expect(calls.lists).toBe(3);
  });
});

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("the project list's pages", () => {
  it("are fetched at once once the first page says how many there are", async () => {
    const page = (n: number, total: number) => ({
      projects: [{ id: `p${n}`, name: `P${n}` }],
      pagination: {
        total_records: total,
        total_pages: total,
        current_page_number: n,
        page_size: 1,
      },
    });
    // Pages 2 and 3 are answered only once both have been asked for: one after the other,
    // the list would never come.
    const held: { res: ServerResponse; n: number }[] = [];
    server = await startScriptedServer((req, res) => {
      const n = Number(new URL(req.url ?? "", "http://x").searchParams.get("page_number"));
      if (n === 1) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(page(1, 3)));
        return;
      }
      held.push({ res, n });
      if (held.length < 2) return;
      for (const { res: waiting, n: m } of held) {
        waiting.writeHead(200, { "content-type": "application/json" });
        waiting.end(JSON.stringify(page(m, 3)));
      }
    });
    const { client } = testClient(server.url);
    const list = await client.listProjects();
    expect(list.map((p) => p.id).sort()).toEqual(["p1", "p2", "p3"]);
    await client.close();
    expect(TEST_KEY).toBeTruthy();
  });
});
