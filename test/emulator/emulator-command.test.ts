import { describe, expect, it } from "vitest";
import { emulatorCommand } from "../../src/commands/emulator-command.js";
import { UsageError } from "../../src/errors.js";

describe("emulator command", () => {
  it("prints the base URL first, then the projects and the key to use", async () => {
    const lines: string[] = [];
    const emulator = await emulatorCommand(
      { key: "k-123", today: "2026-11-16", seed: "demo" },
      (l) => lines.push(l),
    );
    try {
      expect(lines[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/external\/v1$/);
      expect(lines[0]).toBe(emulator.url);
      expect(lines[1]).toContain("dlucmsz (Web E2E)");
      expect(lines[1]).toContain("wvecaab (Legacy admin (archived))");
      expect(lines[1]).toContain("X-Api-Key: k-123");
      const res = await fetch(`${emulator.url}/projects`, { headers: { "x-api-key": "k-123" } });
      expect(res.status).toBe(200);
    } finally {
      await emulator.close();
    }
  });

  it("summarises a long project list instead of printing every id", async () => {
    const lines: string[] = [];
    const emulator = await emulatorCommand({ projects: 500, seed: "bench" }, (l) => lines.push(l));
    try {
      expect(lines[1]).toContain("and 492 more");
      expect(lines[1]).toContain("X-Api-Key: demo-key");
    } finally {
      await emulator.close();
    }
  });

  it.each([
    [{ today: "16/11/2026" }, /today/],
    [{ faults: "teapot:0.5" }, /--faults/],
  ])("refuses bad options with a usage error (%o)", async (opts, message) => {
    await expect(emulatorCommand(opts, () => {})).rejects.toThrow(UsageError);
    await expect(emulatorCommand(opts, () => {})).rejects.toThrow(message);
  });
});
