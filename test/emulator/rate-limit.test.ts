import { describe, expect, it } from "vitest";
import { startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { getFromEmulator } from "./fetch-emulator.js";

describe("the emulator's request limit", () => {
  it("refuses past the limit within a minute, with 429 and Retry-After until the oldest leaves it", async () => {
    let now = Date.parse("2026-11-16T09:00:00Z");
    const emulator = await startEmulator({
      today: "2026-11-16",
      now: () => new Date(now),
      maxRequestsPerMinute: 2,
    });
    try {
      expect((await getFromEmulator(emulator, "/projects")).status).toBe(200);
      now += 20_000;
      expect((await getFromEmulator(emulator, "/projects")).status).toBe(200);
      const refused = await getFromEmulator(emulator, "/projects");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("40");
      now += 40_000;
      expect((await getFromEmulator(emulator, "/projects")).status).toBe(200);
      expect(emulator.requestLog.map((r) => r.status)).toEqual([200, 200, 429, 200]);
      expect(emulator.arrivals).toHaveLength(4);
    } finally {
      await emulator.close();
    }
  });
});
