import { describe, expect, it } from "vitest";
import { useLiveDaemons } from "../daemon/live-daemons.js";
import { digestPosts, waitFor } from "../daemon/live-setup.js";
import { runCli } from "../e2e/run-cli.js";
import type { FakeCall } from "../fake-slack/fake-slack-server.js";

/**
 * A whole digest cycle of the daemon when Slack treats channels differently: one channel is
 * rate-limited, one refuses the bot, two are fine. Each digest is a slot of its own, so the
 * cycle runs them side by side; what one channel does must not hold back the others.
 * (test/deliver/slack-rate-limits.test.ts pins the adapter's waits and budgets on a fake clock.)
 */

const RATE_LIMITED = "C0LIMITED";
const REFUSING = "C0OUTSIDE"; // the fake's channel the bot is not a member of
const FINE = ["C0123ABCD", "C0ALERTS"];

const daemons = useLiveDaemons();
const start = daemons.start;

function digest(name: string, channel: string) {
  return {
    name,
    schedule: "* * * * *", // due at start; every fire of a week is the same slot
    period: "previous_week",
    catch_up: "10m",
    slack: { channel },
  };
}

const postsTo = (calls: readonly FakeCall[], channel: string) =>
  calls.filter((c) => c.method === "chat.postMessage" && c.params.channel === channel);

describe("a digest cycle when Slack rate-limits one channel and refuses another", () => {
  it("delivers the rate-limited digest after its wait, reports the refused one with the fix, and holds back neither other", async () => {
    const live = await daemons.setup({
      digests: [
        digest("limited", RATE_LIMITED),
        digest("refused", REFUSING),
        digest("first", FINE[0] as string),
        digest("second", FINE[1] as string),
      ],
      extraChannels: [{ id: RATE_LIMITED, name: "qa-limited" }],
    });
    const { slack } = live;
    slack.failNext("chat.postMessage", "ratelimited", { channel: RATE_LIMITED, retryAfter: 1 });
    // The fine channels look for an earlier post before posting; holding that lookup until the
    // rate-limited post has had its 429 makes their posts fall inside its wait.
    const lookups = FINE.map((channel) =>
      slack.holdNext("conversations.history", { channel, effect: "on-release" }),
    );

    const daemon = start(live);
    await waitFor(
      "the rate-limited post",
      () => postsTo(slack.calls, RATE_LIMITED).length > 0,
      30_000,
    );
    for (const lookup of lookups) lookup.release();
    const done = await waitFor(
      "every digest done",
      () => {
        const lines = daemon.logs.filter((l) => l.msg === "digest done");
        return lines.length === 4 ? lines : null;
      },
      30_000,
    );

    // The rate-limited channel: refused once, waited out, then posted once.
    const limited = postsTo(slack.calls, RATE_LIMITED);
    expect(limited).toHaveLength(2);
    expect(digestPosts(slack).filter((p) => p.channel === RATE_LIMITED)).toHaveLength(1);
    expect(daemon.logs).toContainEqual(
      expect.objectContaining({
        msg: "Slack rate-limited a call; waiting as its Retry-After asks before retrying",
        method: "chat.postMessage",
        retryAfterSeconds: 1,
      }),
    );

    // The others were not held back: each was posted, once, while that channel waited.
    const [refusedAt, retriedAt] = limited.map((c) => slack.calls.indexOf(c));
    for (const channel of FINE) {
      const [post, ...again] = postsTo(slack.calls, channel);
      expect(again).toEqual([]);
      expect(slack.calls.indexOf(post as FakeCall)).toBeGreaterThan(refusedAt as number);
      expect(slack.calls.indexOf(post as FakeCall)).toBeLessThan(retriedAt as number);
    }
    expect(new Set(digestPosts(slack).map((p) => p.channel))).toEqual(
      new Set([RATE_LIMITED, ...FINE]),
    );

    // The refused channel: nothing posted, and the failure says what to do, in the log and in
    // the history people read when a digest did not arrive.
    const fix = `the bot is not a member of ${REFUSING} (not_in_channel) — invite the bot to ${REFUSING} (/invite @yourbot)`;
    expect(postsTo(slack.calls, REFUSING)).toEqual([]);
    expect(daemon.logs).toContainEqual(
      expect.objectContaining({
        msg: "delivery failed",
        destination: `slack:${REFUSING}`,
        err: expect.stringContaining(fix),
      }),
    );
    expect(
      Object.fromEntries(done.map((l) => [String(l.slot).split(".")[1], l.deliveries])),
    ).toEqual({
      limited: { [`slack:${RATE_LIMITED}`]: "sent" },
      refused: { [`slack:${REFUSING}`]: "failed" },
      first: { [`slack:${FINE[0]}`]: "sent" },
      second: { [`slack:${FINE[1]}`]: "sent" },
    });
    const history = await runCli(["history", "--config", live.configPath]);
    expect(history.code).toBe(0);
    const lines = history.stdout.split("\n");
    const at = lines.findIndex((l) => l.includes(`slack:${REFUSING}`));
    // Not worth retrying until someone invites the bot: given up at once, not retried for hours.
    expect(lines[at]).toMatch(/failed for good +1 try$/);
    // The last error, under its destination, broken between words to fit the terminal.
    const under = lines.slice(at + 1);
    const end = under.findIndex((l) => !l.startsWith("    "));
    const error = under.slice(0, end).join(" ").replace(/\s+/g, " ").trim();
    expect(error).toMatch(/^last error: the bot is not a member/);
    expect(error).toContain(fix);
  }, 60_000);
});
