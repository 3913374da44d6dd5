import { describe, expect, it } from "vitest";
import { FAKE_SLACK_APP_TOKEN } from "../fake-slack/fake-slack-server.js";
import { useLiveDaemons } from "./live-daemons.js";
import { waitFor } from "./live-setup.js";

/**
 * The built daemon (`node dist/cli.js start`) with SLACK_APP_TOKEN: Socket Mode as Node loads
 * it outside the test runner, acking a button press, closing cleanly on SIGTERM, never
 * printing the token.
 */

const daemons = useLiveDaemons();

describe("the daemon process with an app token", () => {
  it("connects, acks and logs a press with its Slack user, and closes the connection on SIGTERM", async () => {
    const setup = await daemons.setup();
    const daemon = daemons.start({
      ...setup,
      env: { ...setup.env, SLACK_APP_TOKEN: FAKE_SLACK_APP_TOKEN },
    });
    await daemon.logged("Slack Socket Mode connected");
    const url = await daemon.opsUrl();
    const ready = await waitFor("/readyz 200", async () => {
      const response = await fetch(`${url}/readyz`);
      return response.status === 200
        ? ((await response.json()) as { checks: Record<string, { ok: boolean }> })
        : null;
    });
    expect(ready.checks.slack_socket?.ok).toBe(true);

    const press = {
      type: "block_actions",
      user: { id: "U0MARIA" },
      actions: [{ action_id: "ack" }],
    };
    const acked = await setup.slack.socket.send("interactive", press);
    expect(acked.ackedAt).not.toBeNull();
    const line = await daemon.logged(
      "Slack envelope acknowledged",
      (l) => l.envelopeId === acked.envelopeId,
    );
    expect(line).toMatchObject({ slackUser: "U0MARIA", action: "ack", type: "interactive" });

    daemon.child.kill("SIGTERM");
    expect(await daemon.exit).toEqual({ code: 0, signal: null });
    await waitFor("the fake to see the connection closed", () =>
      setup.slack.socket.connections.every((c) => !c.open),
    );
    expect(setup.slack.socket.connections).toHaveLength(1);
    const printed = JSON.stringify(daemon.logs) + daemon.text.join("\n");
    expect(printed).not.toContain(FAKE_SLACK_APP_TOKEN);
    expect(printed).not.toContain("fakeapptoken");
  });
});
