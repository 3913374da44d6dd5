import { describe, expect, it } from "vitest";
import { checkConfigCommand } from "../../src/commands/check-config.js";
import { shortKeepWarning } from "../../src/config/history-rules.js";
import { parseConfigText } from "../../src/config/load-config.js";
import { apiEarliestDate } from "../../src/insights/api-lookback.js";
import { configText, fullEnv } from "./config-builders.js";

// A `history.keep` shorter than the API's 3 months loses nothing, but deletes days the API
// still serves, which are then asked again: check-config says so and names the fix.

const NOW = new Date("2026-10-23T12:00:00Z");

async function checkConfigLines(keep: string | null): Promise<string[]> {
  const config = parseConfigText(
    configText(keep === null ? {} : { "history.keep": keep }),
    "reporter.yaml",
    { env: fullEnv() },
  );
  const lines: string[] = [];
  await checkConfigCommand({ config, now: NOW, width: 1_000 }, (line) => lines.push(line));
  return lines;
}

describe("history.keep shorter than the API's lookback", () => {
  it("check-config warns, naming the fix", async () => {
    const lines = await checkConfigLines("30d");
    expect(lines).toContain(
      '  warning: history.keep "30d" is shorter than the insights API\'s 3-month lookback: days deleted from the day store are asked again while the API still serves them — set history.keep to at least "14w" (the default is "2y")',
    );
  });

  it("says nothing for the default, or a keep that covers the 3 months", async () => {
    for (const keep of [null, "2y", "14w", "92d"]) {
      const lines = await checkConfigLines(keep);
      expect(lines.filter((l) => l.includes("history.keep"))).toEqual([]);
    }
  });

  it("compares with the API's earliest date by calendar months", () => {
    expect(apiEarliestDate("2026-10-23")).toBe("2026-07-23");
    // 31 May less 3 months is "31 February": February's last day, as the API counts.
    expect(apiEarliestDate("2026-05-31")).toBe("2026-02-28");
    // 92 days back from 2026-10-23 is 2026-07-23, the API's earliest: covered.
    expect(shortKeepWarning({ amount: 92, unit: "d" }, "2026-10-23")).toBeNull();
    expect(shortKeepWarning({ amount: 91, unit: "d" }, "2026-10-23")).not.toBeNull();
  });
});
