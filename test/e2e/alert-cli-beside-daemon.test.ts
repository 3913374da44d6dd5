import { describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { runCli } from "../daemon/daemon-process.js";
import { waitFor } from "../daemon/live-setup.js";
import { type AlertSetup, alertDaemons, CHANNEL, spikeToday } from "./alert-fixture.js";

// `alerts` run by hand while the daemon is posting the same notification: the CLI claims the
// destination like every sender, finds the daemon's send in flight, and leaves it alone. Before
// it claimed, it took the send over and the channel got the notification twice.

const daemons = alertDaemons();

async function alertSlot(s: AlertSetup) {
  const ledger = openLedger(s.ledgerPath);
  try {
    const [slot] = await ledger.history({ team: "design", limit: 1 });
    return slot;
  } finally {
    await ledger.close();
  }
}

describe("alerts beside a daemon sending the same slot", () => {
  it("leaves the daemon's send alone: the channel gets one post", async () => {
    // A send may take a minute before another process may take it over: the daemon's is fresh.
    const s = await daemons.setup({
      today: spikeToday(),
      schedule: "* * * * *",
      sendTimeout: "60s",
    });
    // Slack holds the daemon's post and stores it only when released (answering late).
    const held = s.slack.holdNext("chat.postMessage", { effect: "on-release" });
    daemons.daemon(s);
    await held.arrived;
    const slot = await alertSlot(s);
    expect(slot?.kind).toBe("alert");

    const cli = runCli(
      [
        "alerts",
        "--team",
        "design",
        "--alert",
        "flaky-rate",
        "--at",
        (slot?.fireAt ?? new Date()).toISOString(),
        "--config",
        s.configPath,
      ],
      s.env,
    );
    const out: string[] = [];
    cli.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    await cli.exit;
    expect(out.join("")).toContain(`slack:${CHANNEL} waiting`);

    held.release();
    await waitFor("the slot delivered", async () => (await alertSlot(s))?.finishedAt);
    expect(s.slack.posts).toHaveLength(1);
    expect(s.smtp.messages).toHaveLength(1);
  });
});
