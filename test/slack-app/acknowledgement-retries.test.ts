import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AlertConfig } from "../../src/config/types.js";
import { pagerdutyDestinationId } from "../../src/destinations/pagerduty/pagerduty-config.js";
import {
  createPagerdutySender,
  type PagerdutySender,
} from "../../src/destinations/pagerduty/pagerduty-sender.js";
import { noClients } from "../../src/destinations/registry.js";
import {
  ALERT_ACTION,
  alertActionsBlockId,
  alertActionsBlocks,
} from "../../src/destinations/slack/messages/slack-alert-actions.js";
import { createLogger } from "../../src/logger.js";
import { jobId, type ScheduledAlert } from "../../src/scheduler/jobs.js";
import { createAcknowledgementResend } from "../../src/scheduler/run-slot.js";
import { createDaemon } from "../../src/scheduler/scheduler.js";
import { Secret } from "../../src/secret.js";
import { handleAlertAction } from "../../src/slack-app/alert-actions.js";
import type { Ledger } from "../../src/state/ledger.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { aTeam } from "../daemon/daemon-harness.js";
import {
  FAKE_ROUTING_KEY,
  type FakeEventsApi,
  startFakeEventsApi,
} from "../fake-pagerduty/fake-events-api.js";

// An acknowledgement pressed in Slack reaches PagerDuty even when the Events API fails or the
// process handling the press stops mid-send: it is recorded as a slot before it is sent, and
// the daemon sends it again on the delivery backoff — one acknowledge event in the end.

const FIRE = "checkout.alert.flaky-rate.2026-11-24";
const PRESSED = Date.parse("2026-11-25T13:05:00.000Z");
const SEND_TIMEOUT_MS = 5 * 60_000;
const MINUTE = 60_000;

let pd: FakeEventsApi | null = null;
let ledger: Ledger | null = null;
let dir: string | null = null;
afterEach(async () => {
  await pd?.close();
  await ledger?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  pd = ledger = dir = null;
});

async function setUp() {
  pd = await startFakeEventsApi();
  dir = mkdtempSync(join(tmpdir(), "ack-retries-"));
  const clock = { now: PRESSED };
  const now = () => new Date(clock.now);
  // The ledger's clock is the test's: a send's claim expires by it, as by the daemon's.
  const store = openLedger(join(dir, "ledger.sqlite"), { now });
  ledger = store;
  const routingKey = new Secret(FAKE_ROUTING_KEY);
  const alert = {
    name: "flaky-rate",
    schedule: "0 9 * * *",
    catchUpMs: 0,
    pagerduty: { routingKey, destination: pagerdutyDestinationId(routingKey) },
  } as AlertConfig;
  const team = aTeam({ digests: [], alerts: [alert] });
  // One attempt per send: a failure is the ledger's to retry, not the sender's.
  const sender = createPagerdutySender({ eventsUrl: pd.url, timeoutMs: 5_000, attempts: 1 });
  const logger = createLogger({ level: "silent" });

  /** Someone presses Acknowledge on the fire's first message, `sender` passing it on. */
  const press = (through: PagerdutySender = sender, pressLedger: Ledger = store) =>
    handleAlertAction(
      {
        type: "block_actions",
        user: { id: "U0ONCALL" },
        channel: { id: "C0ALERTS" },
        message: { ts: "1764075900.000100", text: "", blocks: alertActionsBlocks(FIRE) },
        actions: [
          {
            action_id: ALERT_ACTION.acknowledge,
            block_id: alertActionsBlockId(FIRE),
            action_ts: "1764075960.000200",
          },
        ],
      },
      {
        ledger: pressLedger,
        slack: null,
        alertClients: { ...noClients(), pagerduty: through },
        teams: () => [team],
        logger,
        now,
        deliveries: { owner: "press", sendTimeoutMs: SEND_TIMEOUT_MS },
      },
    );

  /**
   * The daemon's tick at `at` with the alert as configured then, and every run it started, to
   * their end; `daemonLedger` is the ledger as the daemon's process reaches it.
   */
  const daemonTick = async (
    at: number,
    configured: AlertConfig = alert,
    daemonLedger: Ledger = store,
  ) => {
    clock.now = at;
    const job: ScheduledAlert = {
      id: jobId(team.name, "alert", configured.name),
      kind: "alert",
      team: { ...team, alerts: [configured] },
      name: configured.name,
      schedule: configured.schedule,
      zone: team.timezone,
      catchUpMs: 0,
      alert: configured,
    };
    await store.acquireDaemonLease("test daemon");
    const daemon = createDaemon({
      jobs: [job],
      ledger: daemonLedger,
      runSlot: async () => {
        throw new Error("no alert is due in this test");
      },
      acknowledgements: createAcknowledgementResend(
        { alerts: { ...noClients(), pagerduty: sender } },
        { ledger: store },
      ),
      logger,
      now,
      sendTimeoutMs: SEND_TIMEOUT_MS,
    });
    try {
      await daemon.tick();
      await daemon.idle();
    } finally {
      await daemon.stop(0);
      await store.releaseLease();
    }
  };

  const acknowledges = () => (pd?.events ?? []).filter((e) => e.event_action === "acknowledge");
  const delivery = async () => {
    const [slot] = (await store.history({ limit: 10 })).filter((s) => s.kind === "acknowledgement");
    return slot?.deliveries[0];
  };
  const deliveries = async () => {
    const [slot] = (await store.history({ limit: 10 })).filter((s) => s.kind === "acknowledgement");
    return slot?.deliveries ?? [];
  };
  return { pd, store, alert, press, daemonTick, acknowledges, delivery, deliveries };
}

/** The ledger of a process that stops once it has made the call `last`: every later call throws. */
function stopsAfter(store: Ledger, last: keyof Ledger): Ledger {
  let stopped = false;
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        if (stopped) throw new Error("the process stopped here");
        const result: unknown = await value.apply(target, args);
        if (name === last) stopped = true;
        return result;
      };
    },
  });
}

describe("an acknowledgement passed on to PagerDuty", () => {
  it("is recorded when the Events API fails, and the daemon's retry sends exactly one acknowledge event", async () => {
    const { pd, press, daemonTick, acknowledges, delivery } = await setUp();
    pd.failNext(500);
    await press();
    expect(acknowledges()).toEqual([]);
    const failed = await delivery();
    expect(failed?.state).toBe("failed");
    expect(failed?.nextAttemptAt?.getTime()).toBe(PRESSED + MINUTE);

    await daemonTick(PRESSED + 2 * MINUTE);
    expect(acknowledges()).toHaveLength(1);
    expect(acknowledges()[0]?.dedup_key).toBe(FIRE);
    expect((await delivery())?.state).toBe("sent");

    // Later ticks find nothing owed: the acknowledgement went once.
    await daemonTick(PRESSED + 90 * MINUTE);
    expect(acknowledges()).toHaveLength(1);
  });

  it("left mid-send by a process that stopped, is sent once by the daemon after the send timeout", async () => {
    const { press, daemonTick, acknowledges, delivery } = await setUp();
    // The press's own send never ends: its process stopped there, once it had begun.
    let began: () => void = () => {};
    const sending = new Promise<void>((resolve) => {
      began = resolve;
    });
    void press({
      send: () => {
        began();
        return new Promise<void>(() => {});
      },
    });
    await sending;

    // Before the send timeout, the send may still land: the daemon leaves it alone.
    await daemonTick(PRESSED + SEND_TIMEOUT_MS - MINUTE);
    expect(acknowledges()).toEqual([]);
    await daemonTick(PRESSED + SEND_TIMEOUT_MS + MINUTE);
    expect(acknowledges()).toHaveLength(1);
    expect((await delivery())?.state).toBe("sent");
  });

  it("left by a process that stopped right after recording its slot, is sent once by the daemon's retries", async () => {
    const { store, press, daemonTick, acknowledges, delivery } = await setUp();
    await expect(press(undefined, stopsAfter(store, "recordSlot"))).rejects.toThrow(
      "the process stopped here",
    );
    // Recorded in one write as owed a retry, never pending (which no schedule would send).
    expect((await delivery())?.state).toBe("failed");

    await daemonTick(PRESSED + SEND_TIMEOUT_MS - MINUTE);
    expect(acknowledges()).toEqual([]);
    await daemonTick(PRESSED + SEND_TIMEOUT_MS + MINUTE);
    expect(acknowledges()).toHaveLength(1);
    expect((await delivery())?.state).toBe("sent");
  });

  it("left by a press whose process stopped right after claiming the send, is sent once by the daemon after the send timeout", async () => {
    const { store, press, daemonTick, acknowledges, delivery } = await setUp();
    await expect(press(undefined, stopsAfter(store, "claimDelivery"))).rejects.toThrow(
      "the process stopped here",
    );
    // The claim itself left it due: no second write was needed to keep it from being lost.
    expect((await delivery())?.state).toBe("sending");

    await daemonTick(PRESSED + SEND_TIMEOUT_MS - MINUTE);
    expect(acknowledges()).toEqual([]);
    await daemonTick(PRESSED + SEND_TIMEOUT_MS + MINUTE);
    expect(acknowledges()).toHaveLength(1);
    expect((await delivery())?.state).toBe("sent");
  });

  it("left by a daemon whose process stopped right after claiming its retry, is sent once by a later tick after the send timeout", async () => {
    const { pd, store, alert, press, daemonTick, acknowledges, delivery } = await setUp();
    pd.failNext(500);
    await press();
    const retried = PRESSED + 2 * MINUTE;
    await daemonTick(retried, alert, stopsAfter(store, "claimDelivery"));
    expect(acknowledges()).toEqual([]);
    expect((await delivery())?.state).toBe("sending");

    await daemonTick(retried + SEND_TIMEOUT_MS - MINUTE);
    expect(acknowledges()).toEqual([]);
    await daemonTick(retried + SEND_TIMEOUT_MS + MINUTE);
    expect(acknowledges()).toHaveLength(1);
    expect((await delivery())?.state).toBe("sent");
  });

  it("is given up, saying why, once the alert no longer has PagerDuty: nothing is sent, and it is no longer due", async () => {
    const { pd, store, alert, press, daemonTick, acknowledges, delivery } = await setUp();
    pd.failNext(500);
    await press();
    const { pagerduty: _, ...withoutPagerduty } = alert;

    await daemonTick(PRESSED + 2 * MINUTE, withoutPagerduty as AlertConfig);
    expect(acknowledges()).toEqual([]);
    const given = await delivery();
    expect(given?.state).toBe("failed");
    expect(given?.nextAttemptAt).toBeNull();
    expect(given?.lastError).toContain("no longer passes acknowledgements on to this destination");
    expect(await store.dueRetries(new Date(PRESSED + 2 * 24 * 60 * MINUTE))).toEqual([]);
  });

  it("is given up, not sent to the new service, once the alert's routing key changed", async () => {
    const { pd, store, alert, press, daemonTick, acknowledges, deliveries } = await setUp();
    pd.failNext(500);
    await press();
    const routingKey = new Secret("R0UT1NGk3yNEWKEY0123456789abcdef");
    const moved = {
      ...alert,
      pagerduty: { routingKey, destination: pagerdutyDestinationId(routingKey) },
    } as AlertConfig;

    await daemonTick(PRESSED + 2 * MINUTE, moved);
    await daemonTick(PRESSED + 90 * MINUTE, moved);
    // The new service never had the incident: nothing is acknowledged there.
    expect(acknowledges()).toEqual([]);
    const rows = await deliveries();
    expect(rows.map((d) => [d.destination, d.state, d.nextAttemptAt])).toEqual([
      [alert.pagerduty?.destination, "failed", null],
    ]);
    expect(await store.dueRetries(new Date(PRESSED + 2 * 24 * 60 * MINUTE))).toEqual([]);
  });

  it("is given up once a new escalation of the fire cleared the acknowledgement: the escalated fire is not acknowledged", async () => {
    const { pd, store, alert, press, daemonTick, acknowledges, delivery } = await setUp();
    pd.failNext(500);
    await press();
    // The fire escalates before the retry is due: its acknowledgement no longer stands.
    await store.clearAcknowledgements("checkout", alert.name, [FIRE], new Date(PRESSED + MINUTE));

    await daemonTick(PRESSED + 2 * MINUTE);
    await daemonTick(PRESSED + 90 * MINUTE);
    expect(acknowledges()).toEqual([]);
    const given = await delivery();
    expect(given?.nextAttemptAt).toBeNull();
    expect(given?.lastError).toContain("its acknowledgement was cleared");
  });
});
