import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { getFromEmulator, withQuery } from "./fetch-emulator.js";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ today: "2026-11-16", projects: 23 });
});
afterAll(() => emulator.close());

const list = (query: Record<string, string | undefined>, options = {}) =>
  getFromEmulator(emulator, withQuery("/projects", query), options);

describe("GET /projects", () => {
  it("answers the first 10 projects with the pagination object by default", async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.projects).toHaveLength(10);
    expect(body.projects[0]).toEqual({ id: emulator.projects[0]?.id, name: "Web E2E" });
    expect(body.pagination).toEqual({
      total_records: 23,
      current_page_number: 1,
      total_pages: 3,
      page_size: 10,
    });
  });

  it("walks every project exactly once, in order, page by page", async () => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const body = (await list({ page_number: String(page), page_size: "7" })).json();
      if (body.projects.length === 0) break;
      expect(body.pagination).toEqual({
        total_records: 23,
        current_page_number: page,
        total_pages: 4,
        page_size: 7,
      });
      seen.push(...body.projects.map((p: { id: string }) => p.id));
    }
    expect(seen).toEqual(emulator.projects.map((p) => p.id));
  });

  it("answers an empty array for a page past the end", async () => {
    const body = (await list({ page_number: "9", page_size: "10" })).json();
    expect(body.projects).toEqual([]);
    expect(body.pagination).toMatchObject({
      total_records: 23,
      current_page_number: 9,
      total_pages: 3,
    });
  });

  it("caps the page size at 100", async () => {
    const big = await startEmulator({ today: "2026-11-16", projects: 150 });
    try {
      const body = (await getFromEmulator(big, "/projects?page_size=500")).json();
      expect(body.projects).toHaveLength(100);
      expect(body.pagination).toEqual({
        total_records: 150,
        current_page_number: 1,
        total_pages: 2,
        page_size: 100,
      });
    } finally {
      await big.close();
    }
  });

  it.each(["0", "-1", "abc", "1.5"])("answers 400 to page_number=%s", async (value) => {
    const res = await list({ page_number: value });
    expect(res.status).toBe(400);
    expect(res.json().error).toContain("page_number");
  });

  it("answers 401 without the key", async () => {
    const res = await list({}, { key: null });
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ error: "Could not authenticate, invalid API Key" });
  });

  it("names projects past the built-in names with a number", async () => {
    const body = (await list({ page_number: "2", page_size: "12" })).json();
    expect(body.projects.slice(0, 3).map((p: { name: string }) => p.name)).toEqual([
      "Web E2E 2",
      "Checkout API 2",
      "Mobile smoke 2",
    ]);
  });
});
