import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { loadConfig } from "../../src/config/load-config.js";
import { createClients } from "../../src/create-deps.js";
import {
  ALERT_ACTION,
  alertActionsBlockId,
  alertActionsBlocks,
} from "../../src/destinations/slack/messages/slack-alert-actions.js";
import { createLogger } from "../../src/logger.js";
import { handleAlertAction } from "../../src/slack-app/alert-actions.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { runCli } from "../daemon/daemon-process.js";
import {
  FAKE_ROUTING_KEY,
  type FakeEventsApi,
  startFakeEventsApi,
} from "../fake-pagerduty/fake-events-api.js";
import { type AlertSetup, CHANNEL, startAlertSetup } from "./alert-fixture.js";

// An alert's life in PagerDuty, as a user meets it: the built CLI evaluates the alert day by
// day against the fake Events API v2; in between, someone presses Acknowledge on the fire's
// Slack message (the daemon's press handler, in-process, on the same ledger). One dedup key
// — the fire's — carries trigger (warning) → trigger (critical) → acknowledge → resolve, and a
// repeated evaluation sends nothing more. The routing key is nowhere in what is printed,
// stored or listed.

const FIRE = "design.alert.flaky-rate.2026-11-18";

let setup: AlertSetup;
let pd: FakeEventsApi;
beforeAll(async () => {
  [setup, pd] = await Promise.all([
    startAlertSetup({ today: "2026-11-23", schedule: "0 9 * * *" }),
    startFakeEventsApi(),
  ]);
  const config = parse(readFileSync(setup.configPath, "utf8"));
  const alert = config.teams[0].alerts[0];
  delete alert.email;
  alert.pagerduty = { routing_key: "${PD_ROUTING_KEY}" };
  writeFileSync(setup.configPath, stringify(config));
});
afterAll(async () => {
  await Promise.all([setup?.close(), pd?.close()]);
});

const env = () => ({
  ...setup.env,
  PD_ROUTING_KEY: FAKE_ROUTING_KEY,
  PAGERDUTY_EVENTS_URL: pd.url,
});

async function cli(args: string[]) {
  const run = runCli([...args, "--config", setup.configPath], env());
  const out: string[] = [];
  run.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const { code } = await run.exit;
  return {
    code,
    text: [...out, ...run.text, ...run.logs.map((l) => JSON.stringify(l))].join("\n"),
  };
}

const evaluate = (day: string) =>
  cli(["alerts", "--team", "design", "--alert", "flaky-rate", "--at", `${day}T08:00:00Z`]);

/** Someone presses Acknowledge on the fire's first message, handled as the daemon does. */
async function pressAcknowledge() {
  const config = loadConfig(setup.configPath, { env: env() });
  const logger = createLogger({ level: "silent" });
  const clients = createClients(config, { logger });
  const ledger = openLedger(setup.ledgerPath);
  try {
    await handleAlertAction(
      {
        type: "block_actions",
        user: { id: "U0ONCALL" },
        channel: { id: CHANNEL },
        message: { ts: "1763456400.000100", text: "", blocks: alertActionsBlocks(FIRE) },
        actions: [
          {
            action_id: ALERT_ACTION.acknowledge,
            block_id: alertActionsBlockId(FIRE),
            action_ts: "1763460000.000200",
          },
        ],
      },
      {
        ledger,
        slack: null,
        alertClients: clients.alerts,
        teams: () => config.teams,
        logger,
        now: () => new Date(),
      },
    );
  } finally {
    await ledger.close();
    await clients.close();
  }
}

describe("an alert's life in PagerDuty", () => {
  it("triggers, re-triggers critical, is acknowledged from Slack and resolves on the fire's dedup key, once each", async () => {
    const said: string[] = [];
    for (const day of ["2026-11-19", "2026-11-20"]) {
      const run = await evaluate(day); // window Nov 18: 4.2% warn; Nov 19: 7.5% critical
      expect(run.code, run.text).toBe(0);
      said.push(run.text);
    }
    await pressAcknowledge();
    const resolved = await evaluate("2026-11-22"); // window Nov 21: 0.9%, resolved
    expect(resolved.code, resolved.text).toBe(0);
    const again = await evaluate("2026-11-22"); // the same evaluation once more: nothing new
    expect(again.code, again.text).toBe(0);
    said.push(resolved.text, again.text);

    expect(pd.events.map((e) => [e.event_action, e.payload?.severity ?? null])).toEqual([
      ["trigger", "warning"],
      ["trigger", "critical"],
      ["acknowledge", null],
      ["resolve", null],
    ]);
    expect(new Set(pd.events.map((e) => e.dedup_key))).toEqual(new Set([FIRE]));
    expect(pd.events.every((e) => e.routing_key === FAKE_ROUTING_KEY)).toBe(true);
    const [fired, escalated] = pd.events;
    expect(fired?.payload?.summary).toMatch(/flaky rate 4\.\d% — above warn 3%/);
    expect(escalated?.payload?.summary).toMatch(/flaky rate 7\.\d% — above critical 5%/);
    expect(escalated?.payload?.custom_details).toMatchObject({
      team: "design",
      alert: "flaky-rate",
      metric: "flaky_rate",
    });

    const history = await cli(["history"]);
    expect(history.code, history.text).toBe(0);
    expect(history.text).toMatch(/pagerduty:[0-9a-f]{6}/);
    for (const text of [...said, history.text, readFileSync(setup.ledgerPath, "latin1")]) {
      expect(text).not.toContain(FAKE_ROUTING_KEY);
    }
  });
});
