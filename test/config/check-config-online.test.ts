import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfigCommand } from "../../src/commands/check-config.js";
import { parseConfigText } from "../../src/config/load-config.js";
import type { ResolvedConfig } from "../../src/config/types.js";
import { createInsightsClient } from "../../src/insights/create-insights-client.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { Secret } from "../../src/secret.js";
import { configText, fullEnv } from "./config-builders.js";

const KEY = "emulator-key-for-check-config";
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ today: "2026-11-16", key: KEY, projects: 3 });
});
afterAll(() => emulator.close());

/** A config whose two teams use the emulator's project ids (or the ids given). */
function configFor(ids: [string, string, string]): ResolvedConfig {
  const text = configText({
    "teams[0].projects": [{ id: ids[0] }, { id: ids[1] }],
    "teams[1].projects": [{ id: ids[2] }],
  });
  return parseConfigText(text, "online.yaml", {
    env: fullEnv({ INSIGHTS_API_URL: emulator.url, INSIGHTS_API_KEY: KEY }),
  });
}

/** check-config --online against the emulator over HTTP, with the real client and this key. */
async function checkOnline(config: ResolvedConfig, key: string) {
  const api = createInsightsClient({ baseUrl: emulator.url, key: new Secret(key), maxAttempts: 1 });
  const lines: string[] = [];
  try {
    const code = await checkConfigCommand(
      // Wide enough that no line breaks: these tests read what a line says.
      { config, now: new Date("2026-11-16T10:00:00Z"), width: 1_000, online: { api } },
      (line) => lines.push(line),
    );
    return { code, lines };
  } finally {
    await api.close();
  }
}

describe("check-config --online against the emulator", () => {
  it("passes when the key is accepted and every project exists", async () => {
    const [a, b, c] = emulator.projects.map((p) => p.id) as [string, string, string];
    const { code, lines } = await checkOnline(configFor([a, b, c]), KEY);
    expect(code).toBe(0);
    expect(lines).toContain("insights API: key accepted — 3 projects in this workspace");
    expect(lines).toContain("team checkout: all 2 projects found");
  });

  it("fails with the fix when the key is refused, and never prints the key", async () => {
    const [a, b, c] = emulator.projects.map((p) => p.id) as [string, string, string];
    const wrongKey = "wrong-key-0123456789";
    const { code, lines } = await checkOnline(configFor([a, b, c]), wrongKey);
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatch(
      /^insights API: the API key was refused .* check INSIGHTS_API_KEY/,
    );
    expect(lines.join("\n")).not.toContain(wrongKey);
  });

  it("names a project the workspace lacks and lists the ids it has", async () => {
    const [a, b] = emulator.projects.map((p) => p.id) as [string, string];
    const { code, lines } = await checkOnline(configFor([a, b, "nosuchp"]), KEY);
    expect(code).toBe(1);
    const line = lines.find((l) => l.startsWith("team payments:")) ?? "";
    expect(line).toContain('project "nosuchp" not in this workspace — ids available: ');
    for (const project of emulator.projects)
      expect(line).toContain(`${project.id} (${project.name})`);
  });
});
