import { describe, expect, it } from "vitest";
import { startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { getFromEmulator } from "./fetch-emulator.js";

describe("request log", () => {
  it("records method, path, query, status and whether a key was sent, never the key itself", async () => {
    const key = "s3cret-key-7f2a";
    const emulator = await startEmulator({ today: "2026-11-16", key });
    try {
      const id = emulator.projects[0]?.id;
      await getFromEmulator(
        emulator,
        `/projects/${id}/insights?timezone=Europe/Berlin&tags=smoke,e2e`,
        { key },
      );
      await getFromEmulator(emulator, "/projects?page_size=100", { key: null });
      await getFromEmulator(emulator, "/projects", { key: "wrong-key" });
      expect(emulator.requestLog).toEqual([
        {
          method: "GET",
          path: `/api/external/v1/projects/${id}/insights`,
          query: { timezone: "Europe/Berlin", tags: "smoke,e2e" },
          status: 200,
          hadKey: true,
        },
        {
          method: "GET",
          path: "/api/external/v1/projects",
          query: { page_size: "100" },
          status: 401,
          hadKey: false,
        },
        { method: "GET", path: "/api/external/v1/projects", query: {}, status: 401, hadKey: true },
      ]);
      expect(JSON.stringify(emulator.requestLog)).not.toContain(key);
      expect(JSON.stringify(emulator.requestLog)).not.toContain("wrong-key");
    } finally {
      await emulator.close();
    }
  });

  it("counts repeated requests one by one, so callers can check deduplication", async () => {
    const emulator = await startEmulator({ today: "2026-11-16" });
    try {
      const path = `/projects/${emulator.projects[1]?.id}/insights`;
      await Promise.all([1, 2, 3].map(() => getFromEmulator(emulator, path)));
      expect(emulator.requestLog.filter((r) => r.path.endsWith(path))).toHaveLength(3);
    } finally {
      await emulator.close();
    }
  });
});
