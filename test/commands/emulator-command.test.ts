import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { emulatorCommand } from "../../src/commands/emulator-command.js";

// The demo prints a path to try next: `emulator`, then `preview --config config/demo.yaml`.
// It works only if the emulator's default serves every project that config names.

describe("insights-reporter emulator, by default", () => {
  it("serves every project of config/demo.yaml, the alert team's seventh included", async () => {
    const demo = parse(readFileSync("config/demo.yaml", "utf8")) as {
      teams: { projects: { id: string }[] }[];
    };
    const wanted = new Set(demo.teams.flatMap((t) => t.projects.map((p) => p.id)));
    const lines: string[] = [];
    const emulator = await emulatorCommand({}, (line) => lines.push(line));
    try {
      const served = new Set(emulator.projects.map((p) => p.id));
      expect([...wanted].filter((id) => !served.has(id))).toEqual([]);
      expect(lines[1]).toContain("xezdgyq (Design system)");
    } finally {
      await emulator.close();
    }
  });
});
