import { describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { waitFor } from "../daemon/live-setup.js";
import { type AlertSetup, alertDaemons, spikeToday } from "./alert-fixture.js";

// The daemon as a process, killed after Slack took a fire's chart and before the upload was
// recorded: the restart finds the fire's post by its key and the chart in its thread, records
// the upload as done, and uploads nothing again.

const daemons = alertDaemons();

async function slackDelivery(s: AlertSetup) {
  const ledger = openLedger(s.ledgerPath);
  try {
    const [slot] = await ledger.history({ team: "design", limit: 1 });
    const slack = slot?.deliveries.find((d) => d.destination.startsWith("slack:"));
    const parts = slot && slack ? await ledger.partsDone(slot.key, slack.destination) : new Map();
    return { slot, slack, parts };
  } finally {
    await ledger.close();
  }
}

describe("an alert fire's chart across a kill", () => {
  it("taken by Slack just before the kill, is found in the thread by the restart, not uploaded again", async () => {
    const s = await daemons.setup({ today: spikeToday(), schedule: "* * * * *", chart: true });
    // Slack shares the chart at once, and its answer never reaches the daemon.
    const chart = s.slack.holdNext("files.completeUploadExternal");

    const first = daemons.daemon(s);
    await chart.stored;
    first.child.kill("SIGKILL");
    await first.exit;
    expect(s.slack.posts).toHaveLength(1);
    expect(s.slack.uploads).toHaveLength(1);
    const before = await slackDelivery(s);
    expect([...before.parts.keys()]).toEqual(["post"]);

    daemons.daemon(s);
    await waitFor("the slot delivered", async () => (await slackDelivery(s)).slot?.finishedAt);
    const [post] = s.slack.posts;
    expect(s.slack.posts).toHaveLength(1);
    const [upload] = s.slack.uploads;
    expect(s.slack.uploads).toHaveLength(1);
    expect(upload?.thread_ts).toBe(post?.ts);
    const after = await slackDelivery(s);
    expect(after.slack).toMatchObject({ state: "sent", ref: post?.ts });
    expect([...after.parts.keys()].sort()).toEqual(["post", `upload ${upload?.filename}`]);
    // The restart read the fire's thread to know.
    const replies = s.slack.calls.filter((c) => c.method === "conversations.replies");
    expect(replies.length).toBeGreaterThanOrEqual(1);
  });
});
