import { describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load-config.js";
import { restartOnlyChanges } from "../../src/daemon/restart-only-changes.js";
import { prefetchPerMinute } from "../../src/daemon/start-prefetch.js";
import { configText, fullEnv } from "./config-builders.js";

// `history.prefetch`: on unless turned off, a day ahead of each fire, at a quarter of the API
// budget unless given a pace of its own.

function resolved(settings: Record<string, unknown>) {
  return parseConfigText(configText(settings), "reporter.yaml", { env: fullEnv() });
}

describe("history.prefetch", () => {
  it.each([
    ["left out", {}, { aheadMs: 86_400_000, maxRequestsPerMinute: null }, 60],
    ["true", { "history.prefetch": true }, { aheadMs: 86_400_000, maxRequestsPerMinute: null }, 60],
    ["false", { "history.prefetch": false }, null, null],
    [
      "a day and a half ahead, at 20 a minute",
      { "history.prefetch": { ahead: "36h", max_requests_per_minute: 20 } },
      { aheadMs: 36 * 3_600_000, maxRequestsPerMinute: 20 },
      20,
    ],
    [
      "under a budget of 300 a minute",
      { "api.max_requests_per_minute": 300 },
      { aheadMs: 86_400_000, maxRequestsPerMinute: null },
      75,
    ],
  ])("%s", (_name, settings, prefetch, perMinute) => {
    const config = resolved(settings);
    expect(config.history?.prefetch).toEqual(prefetch);
    if (perMinute !== null) expect(prefetchPerMinute(config)).toBe(perMinute);
  });

  it("refuses an ahead past a week, and a pace below one a minute, naming the limit", () => {
    expect(() => resolved({ "history.prefetch": { ahead: "8d" } })).toThrow(
      /history\.prefetch.*at most 7d/s,
    );
    expect(() => resolved({ "history.prefetch": { max_requests_per_minute: 0 } })).toThrow(
      /history\.prefetch/,
    );
  });

  it("is one of the sections a reload does not apply: the prefetch was started with the daemon", () => {
    const before = resolved({});
    expect(restartOnlyChanges(before, resolved({ "history.prefetch": false }))).toEqual([
      "history",
    ]);
    expect(restartOnlyChanges(before, resolved({ "history.prefetch": { ahead: "48h" } }))).toEqual([
      "history",
    ]);
    expect(restartOnlyChanges(before, resolved({}))).toEqual([]);
  });
});
