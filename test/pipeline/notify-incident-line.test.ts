import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { ScopeState, ScopeWindow } from "../../src/alerts/types.js";
import type { AlertConfig } from "../../src/config/types.js";
import { createLogger } from "../../src/logger.js";
import { alertSlot } from "../../src/pipeline/alert/alert-slot.js";
import type { AlertDeps } from "../../src/pipeline/alert/alert-types.js";
import { notify } from "../../src/pipeline/alert/notify-stage.js";
import type { Ledger } from "../../src/state/ledger.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { counts, rule } from "../alerts/alert-builders.js";
import { configText, parse } from "../config/config-builders.js";

// Issue 38: a member's first message carries "Part of incident <key> in <channel>"; the notify
// stage re-renders that message on a resolution, an escalation or an acknowledgement, and keeps
// the line by looking up the fire's incident in the ledger.

const FIRE = "checkout.alert.flaky-rate.2026-11-16";
const INCIDENT = "incident.2026-11-16T08:00:00.000Z";
const NOW = new Date("2026-11-19T08:00:00.000Z");

let ledger: Ledger | null = null;
let dir = "";
afterEach(async () => {
  await ledger?.close();
  ledger = null;
  rmSync(dir, { recursive: true, force: true });
});

const window = (percent: number): ScopeWindow => ({
  scope: "pdqmxlz",
  name: "Web",
  current: counts(percent, 5_000),
  prior: counts(1, 5_000),
  daily: [counts(1, 5_000), counts(percent, 5_000)],
});
const firing: ScopeState = {
  scope: "pdqmxlz",
  state: "warn",
  since: "2026-11-18T08:00:00.000Z",
  breaches: 1,
  lastValue: 4,
  lastNotifiedAt: "2026-11-18T08:00:00.000Z",
  firedAt: "2026-11-16T08:00:00.000Z",
  threadKey: FIRE,
};

async function rendered(withIncident: boolean) {
  dir = mkdtempSync(join(tmpdir(), "notify-incident-"));
  ledger = await openLedger(join(dir, "ledger.sqlite"));
  if (withIncident) {
    await ledger.recordIncident(
      {
        key: INCIDENT,
        team: "*",
        kind: "incident",
        job: "incident",
        fireAt: new Date("2026-11-16T08:00:00.000Z"),
        period: { start: "2026-11-16", end: "2026-11-16" },
        destinations: [],
      },
      {
        summary: "3 projects in 2 teams: flaky rate up",
        channel: "C0INCIDENTS",
        members: [
          {
            team: "checkout",
            alert: "flaky-rate",
            metric: "flaky_rate",
            scope: "pdqmxlz",
            name: "Web",
            value: 4,
            fireKey: FIRE,
            channel: "C0ALERTS",
          },
        ],
      },
    );
  }
  const result = parse(configText({}));
  if (!("config" in result)) throw new Error(JSON.stringify(result.issues));
  const team = result.config.teams[0];
  if (!team) throw new Error("no team");
  const alert = team.alerts[0] as AlertConfig;
  const job = { team, alert, fireAt: NOW };
  const { key, window: period } = alertSlot(job);
  const evaluation = evaluateAlert({
    rule: rule({ confidence: 0.95 }),
    windows: [window(1)],
    states: new Map([["pdqmxlz", firing]]),
    now: NOW.toISOString(),
    key,
  });
  const held = {
    recorded: evaluation,
    posted: evaluation,
    standing: { silences: [], acknowledged: new Set<string>(), shown: {}, cleared: [] },
  };
  const deps = {
    ledger,
    slack: {},
    email: null,
    msteams: null,
    webhook: null,
    pagerduty: null,
    logger: createLogger({ level: "silent" }),
  } as unknown as AlertDeps;
  return notify(job, key, period, held, deps);
}

describe("the notify stage and a fire's incident", () => {
  it("a resolution's edit of a member's first message keeps its 'Part of incident' line", async () => {
    const n = await rendered(true);
    const [update] = n?.slack?.updates ?? [];
    expect(update?.rootKey).toBe(FIRE);
    expect(JSON.stringify(update?.message.blocks)).toContain(
      `Part of incident ${INCIDENT} in C0INCIDENTS`,
    );
  });

  it("a fire in no incident gets no line", async () => {
    const n = await rendered(false);
    const [update] = n?.slack?.updates ?? [];
    expect(update?.rootKey).toBe(FIRE);
    expect(JSON.stringify(update?.message.blocks)).not.toContain("Part of incident");
  });
});
