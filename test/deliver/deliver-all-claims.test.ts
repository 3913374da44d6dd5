import { describe, expect, it } from "vitest";
import {
  ClaimLostError,
  type DeliveryJob,
  type DeliveryLedger,
  deliverAll,
} from "../../src/deliver/deliver-all.js";
import { captureLogs } from "../daemon/daemon-harness.js";

/**
 * A sender that stalled past its claim (paused, cut off from the database) finds the send taken
 * over: it does not send, stops between parts, and a write its claim no longer covers is
 * refused. Each time it records nothing and says so; what the other process records stands.
 */

const KEY = "checkout.daily.2026-11-15";
const SLACK = "slack:C0123";
const CLAIM = 7;

/** A ledger that grants claim 7, says whether it still holds by `holds`, and refuses writes when `writes` is false. */
function claimLedger(options: { holds: (checks: number) => boolean; writes: boolean }) {
  const calls: string[] = [];
  let checks = 0;
  const ledger: DeliveryLedger = {
    beginAttempt: async () => ({ state: "pending", attempts: 0, claim: CLAIM }),
    markSent: async (_key, id, _receipt, claim) => {
      calls.push(`markSent ${id} claim ${claim}`);
      return options.writes;
    },
    markFailed: async (_key, id, error, _next, claim) => {
      calls.push(`markFailed ${id} claim ${claim}: ${error}`);
      return options.writes;
    },
    partsDone: async () => new Map(),
    recordPart: async (_key, _id, part) => {
      calls.push(`recordPart ${part}`);
    },
    holdsClaim: async (_key, _id, claim) => {
      expect(claim).toBe(CLAIM);
      checks += 1;
      return options.holds(checks);
    },
  };
  return { ledger, calls };
}

/** A Slack-like job: a post, then a thread reply, each recorded as a part. */
function twoParts(sent: string[]): DeliveryJob {
  return {
    id: SLACK,
    send: async (progress) => {
      sent.push("post");
      await progress.record("post", "1.1");
      sent.push("thread 1");
      await progress.record("thread 1", null);
      return { ref: "1.1" };
    },
  };
}

const lostClaim =
  "lost the claim: another process took this delivery over; this one records nothing";

describe("a send whose claim was taken over", () => {
  it("is not sent when the claim was lost before the send", async () => {
    const { ledger, calls } = claimLedger({ holds: () => false, writes: false });
    const { lines, logger } = captureLogs();
    const sent: string[] = [];
    const results = await deliverAll(KEY, [twoParts(sent)], { ledger, logger });
    expect(results).toEqual([{ id: SLACK, status: "waiting" }]);
    expect(sent).toEqual([]);
    expect(calls).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ msg: lostClaim, claim: CLAIM }));
  });

  it("stops before its next part once the claim is lost, and its failure write is refused", async () => {
    // Held at the check before the send; lost by the check after the first part.
    const { ledger, calls } = claimLedger({ holds: (n) => n < 2, writes: false });
    const { lines, logger } = captureLogs();
    const sent: string[] = [];
    const results = await deliverAll(KEY, [twoParts(sent)], {
      ledger,
      logger,
      retryAt: () => new Date("2026-11-16T09:00:00Z"),
    });
    expect(results).toEqual([{ id: SLACK, status: "waiting" }]);
    expect(sent).toEqual(["post"]);
    expect(calls).toEqual([
      "recordPart post",
      `markFailed ${SLACK} claim ${CLAIM}: ${new ClaimLostError(KEY, SLACK).message}`,
    ]);
    expect(lines).toContainEqual(expect.objectContaining({ msg: lostClaim }));
  });

  it("is reported waiting, not sent, when the fenced write of its receipt is refused", async () => {
    const { ledger, calls } = claimLedger({ holds: (n) => n < 2, writes: false });
    const { lines, logger } = captureLogs();
    const job: DeliveryJob = { id: SLACK, send: async () => ({ ref: "1.1" }) };
    const results = await deliverAll(KEY, [job], { ledger, logger });
    expect(results).toEqual([{ id: SLACK, status: "waiting" }]);
    expect(calls).toEqual([`markSent ${SLACK} claim ${CLAIM}`]);
    expect(lines).toContainEqual(expect.objectContaining({ msg: lostClaim }));
  });

  it("goes through when the claim holds and its writes land", async () => {
    const { ledger, calls } = claimLedger({ holds: () => true, writes: true });
    const sent: string[] = [];
    const results = await deliverAll(KEY, [twoParts(sent)], {
      ledger,
      logger: captureLogs().logger,
    });
    expect(results).toEqual([{ id: SLACK, status: "sent", receipt: { ref: "1.1" } }]);
    expect(sent).toEqual(["post", "thread 1"]);
    expect(calls).toEqual([
      "recordPart post",
      "recordPart thread 1",
      `markSent ${SLACK} claim ${CLAIM}`,
    ]);
  });
});
