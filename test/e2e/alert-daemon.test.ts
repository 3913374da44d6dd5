import { describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { waitFor } from "../daemon/live-setup.js";
import { type AlertSetup, alertDaemons, MENTION, spikeToday } from "./alert-fixture.js";

// The daemon as a process evaluating an alert due every minute: killed between recording the
// evaluation and sending it, then restarted, it sends the recorded notification exactly once;
// restarted again while the alert fires, it announces nothing.

const daemons = alertDaemons();

async function alertSlot(s: AlertSetup) {
  const ledger = openLedger(s.ledgerPath);
  try {
    const [slot] = await ledger.history({ team: "design", limit: 1 });
    const states = await ledger.alertStates("design", "flaky-rate");
    return { slot, states };
  } finally {
    await ledger.close();
  }
}

describe("alerts in the daemon", () => {
  it("sends one notification per evaluation across a SIGKILL, and never re-announces a firing alert", async () => {
    const s = await daemons.setup({ today: spikeToday(), schedule: "* * * * *" });
    // Slack takes the post but does nothing until released: the process dies before it is sent.
    const held = s.slack.holdNext("chat.postMessage", { effect: "on-release" });

    const first = daemons.daemon(s);
    await held.arrived;
    const recorded = await alertSlot(s);
    expect(recorded.states.map((st) => st.state)).toEqual(["critical"]);
    expect(recorded.slot?.kind).toBe("alert");
    first.child.kill("SIGKILL");
    await first.exit;
    expect(s.slack.posts).toHaveLength(0);

    const second = daemons.daemon(s);
    await second.logged("alert evaluated");
    await waitFor("one post", () => s.slack.posts.length === 1);
    await waitFor("the slot delivered", async () => (await alertSlot(s)).slot?.finishedAt);
    const [post] = s.slack.posts;
    expect(post?.text).toContain(MENTION);
    expect(post?.metadata?.event_payload.key).toBe(recorded.slot?.key);
    // The notification was the recorded one: the states were not judged again.
    expect(second.logs.find((l) => l.msg === "alert evaluated")?.transitions).toBe("recorded");
    await waitFor("one mail", () => s.smtp.messages.length === 1);

    second.child.kill("SIGTERM");
    await second.exit;
    const third = daemons.daemon(s);
    await third.logged("scheduled", (l) => l.job === "design/alert/flaky-rate");
    // The minute's fire is the same slot, delivered: a tick ends with nothing launched, and
    // nothing is announced again.
    await waitFor("a tick that launched nothing", async () => {
      const metrics = await (await fetch(`${await third.opsUrl()}/metrics`)).text();
      return (
        /^insights_reporter_last_tick_timestamp_seconds [1-9]/m.test(metrics) &&
        /^insights_reporter_slots_in_flight 0$/m.test(metrics)
      );
    });
    expect(s.slack.posts).toHaveLength(1);
    expect(s.smtp.messages).toHaveLength(1);
    expect((await alertSlot(s)).states.map((st) => st.state)).toEqual(["critical"]);

    const metrics = await (await fetch(`${await third.opsUrl()}/metrics`)).text();
    const scope = s.emulator.projects[6]?.id;
    expect(metrics).toContain(
      `insights_reporter_alert_state{team="design",kind="alert",job="flaky-rate",scope="${scope}"} 3`,
    );
  });
});
