import { describe, expect, it } from "vitest";
import { createSlackLimits, IN_FLIGHT_MS, POST_BURST } from "./fake-slack-limits.js";

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
