import { describe, expect, it } from "vitest";
import { createSlackLimits, IN_FLIGHT_MS, POST_BURST } from "./fake-slack-limits.js";
import { createLoopClock } from "./loop-clock.js";

describe("fake Slack's rate limits", () => {
  it("lets a channel's burst through, then answers 429 with Retry-After; another channel is its own", () => {
    let now = 0;
    const limits = createSlackLimits(() => now);
    for (let i = 0; i < POST_BURST; i++)
      expect(limits.check("chat.postMessage", "C1", "a")).toBeNull();
    expect(limits.check("chat.postMessage", "C1", "a")).toMatchObject({
      status: 429,
      headers: { "retry-after": "1" },
    });
    expect(limits.check("chat.postMessage", "C2", "a")).toBeNull();
    now = 1_000;
    expect(limits.check("chat.postMessage", "C1", "a")).toBeNull();
    expect(limits.unhonoured).toEqual([]);
  });

  it("counts a call inside a Retry-After its caller was given as unhonoured, another caller's as unwarned", () => {
    let now = 0;
    const limits = createSlackLimits(() => now);
    for (let i = 0; i < 21; i++) limits.check("conversations.list", null, "a");
    expect(limits.limited).toHaveLength(1);
    // Sent before the 429 could be read: not held against the caller.
    now = IN_FLIGHT_MS - 1;
    limits.check("conversations.list", null, "a");
    expect(limits.unhonoured).toHaveLength(0);
    now = IN_FLIGHT_MS + 10;
    limits.check("conversations.list", null, "a");
    limits.check("conversations.list", null, "b");
    expect(limits.unhonoured.map((c) => c.caller)).toEqual(["a"]);
    expect(limits.unwarned.map((c) => c.caller)).toEqual(["b"]);
  });
});

describe("when the fake dates a call", () => {
  it("judges a call read late by a stalled fake by when it can have arrived, not by when it was read", () => {
    let now = 0;
    const limits = createSlackLimits(() => now);
    for (let i = 0; i <= POST_BURST; i++) limits.check("chat.postMessage", "C1", "a");
    expect(limits.limited).toHaveLength(1);
    // Read 142 ms after the 429, but the fake's loop last went round as it answered the 429:
    // the call may have been on the wire before the 429 was.
    now = 142;
    limits.check("chat.postMessage", "C1", "a", 0);
    expect(limits.unhonoured).toEqual([]);
    // One that came once the loop had gone round IN_FLIGHT_MS after the 429 is counted.
    now = 150;
    limits.check("chat.postMessage", "C1", "a", IN_FLIGHT_MS + 20);
    expect(limits.unhonoured.map((c) => c.at)).toEqual([150]);
  });

  it("takes the beat before a late one as the earliest arrival: the stall ended just before it", () => {
    let now = 1_000;
    const loop = createLoopClock(10, () => now);
    now = 1_010;
    loop.beat();
    expect(loop.earliest()).toBe(1_010);
    now = 1_150; // stalled 140 ms, then the beat ran before the request was read
    loop.beat();
    expect(loop.earliest()).toBe(1_010);
    now = 1_160;
    loop.beat();
    expect(loop.earliest()).toBe(1_160);
  });
});
