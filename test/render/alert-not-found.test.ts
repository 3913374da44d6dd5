import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import { scopeWindows } from "../../src/alerts/scope-windows.js";
import { buildAlertNotification } from "../../src/destinations/alert-notification.js";
import { renderTerminalAlert } from "../../src/render/alert/terminal-alert.js";
import { counts, rule } from "../alerts/alert-builders.js";

// A project the API does not know is named as such by an alert, not as a quiet `no_data`.

const report = {
  team: { title: "Checkout" },
  projects: [
    {
      projectId: "zzghost",
      name: "Ghost",
      status: "unavailable" as const,
      reason: { code: "PROJECT_NOT_FOUND" },
    },
  ],
  total: { prior: null, daily: [] },
};

describe("an alert over a project the API does not know", () => {
  const evaluation = evaluateAlert({
    rule: rule({ onNoData: "fire" }),
    windows: scopeWindows(report, 1, "projects"),
    states: new Map(),
    now: "2026-11-19T08:00:00.000Z",
    key: "t.alert.flaky.2026-11-18",
  });

  it("says not found in the terminal", () => {
    const lines = renderTerminalAlert(
      { name: "flaky", metric: "flaky_rate" },
      { key: "k", window: { start: "2026-11-18", end: "2026-11-18" }, evaluation },
    );
    const ghost = lines.find((l) => l.includes("Ghost")) ?? "";
    expect(ghost).toMatch(/Ghost\s+not found$/);
    expect(ghost).not.toContain("no_data");
  });

  it("says not found in the message it sends", () => {
    const n = buildAlertNotification({
      key: "k",
      team: { name: "t", title: "Checkout", timezone: "Europe/Berlin" },
      alert: {
        name: "flaky",
        metric: "flaky_rate",
        warnAt: 3,
        criticalAt: 5,
        clearAt: 2.5,
        confidence: null,
      },
      period: { start: "2026-11-18", end: "2026-11-18" },
      mention: null,
      evaluation,
      slack: { channel: "C1" },
      email: null,
      msteams: null,
      webhook: null,
      pagerduty: null,
      now: "2026-11-19T08:00:00.000Z",
    });
    expect(n?.slack?.post.main.text).toBe(
      "Checkout · flaky: Ghost flaky rate: not found — counted as warn",
    );
  });
});

describe("an alert's first evaluation in the terminal", () => {
  it("says what it saw since the window's first day, not a move from no_data", () => {
    const evaluation = evaluateAlert({
      rule: rule(),
      windows: [
        {
          scope: "p1",
          name: "Web",
          current: counts(8),
          prior: null,
          daily: [],
        },
      ],
      states: new Map(),
      now: "2026-11-28T08:00:00.000Z",
      key: "t.alert.flaky.2026-11-21_2026-11-27",
    });
    const lines = renderTerminalAlert(
      { name: "flaky", metric: "flaky_rate" },
      { key: "k", window: { start: "2026-11-21", end: "2026-11-27" }, evaluation },
    );
    expect(lines.at(-1)).toBe(
      "  \u2192 Web: critical since at least Nov 21 (first check of this alert)",
    );
    expect(lines.join("\n")).not.toContain("no_data");
  });
});
