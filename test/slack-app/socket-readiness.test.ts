import { describe, expect, it } from "vitest";
import {
  describeEnvelope,
  type SlackSocketStatus,
  SOCKET_STALE_MS,
  socketReadiness,
} from "../../src/slack-app/slack-socket.js";

const SINCE = new Date("2026-11-25T10:00:00.000Z");
const later = (ms: number) => new Date(SINCE.getTime() + ms);
const status = (overrides: Partial<SlackSocketStatus>): SlackSocketStatus => ({
  state: "connected",
  since: SINCE,
  connects: 1,
  problem: null,
  ...overrides,
});

describe("the Socket Mode /readyz check", () => {
  it.each([
    ["connected", status({}), later(SOCKET_STALE_MS * 10), true],
    ["reconnecting for a moment", status({ state: "reconnecting" }), later(1_000), true],
    ["reconnecting too long", status({ state: "reconnecting" }), later(SOCKET_STALE_MS), false],
    ["connecting too long", status({ state: "connecting" }), later(SOCKET_STALE_MS), false],
    ["refused", status({ state: "refused", problem: "invalid_auth" }), later(0), false],
    ["failed", status({ state: "failed", problem: "boom" }), later(0), false],
    ["stopped", status({ state: "stopped" }), later(0), false],
  ])("%s: ok is as expected", (_, current, now, ok) => {
    expect(socketReadiness(current, now).ok).toBe(ok);
  });

  it("names the fix when the token is refused", () => {
    const { detail } = socketReadiness(
      status({ state: "refused", problem: "token_revoked" }),
      SINCE,
    );
    expect(detail).toContain("token_revoked");
    expect(detail).toContain("SLACK_APP_TOKEN");
    expect(detail).toContain("connections:write");
  });
});

describe("the log line of an envelope", () => {
  it("names the Slack user and the action of a button press", () => {
    const body = {
      type: "block_actions",
      user: { id: "U0MARIA" },
      actions: [{ action_id: "snooze" }],
    };
    expect(
      describeEnvelope({ envelopeId: "e1", type: "interactive", body, retryAttempt: 0 }),
    ).toEqual({ envelopeId: "e1", type: "interactive", slackUser: "U0MARIA", action: "snooze" });
  });

  it("names the user and command of a slash command, and a redelivery", () => {
    const body = { command: "/insights", text: "status checkout", user_id: "U0BOB" };
    expect(
      describeEnvelope({ envelopeId: "e2", type: "slash_commands", body, retryAttempt: 2 }),
    ).toEqual({
      envelopeId: "e2",
      type: "slash_commands",
      retryAttempt: 2,
      slackUser: "U0BOB",
      command: "/insights",
    });
  });
});
