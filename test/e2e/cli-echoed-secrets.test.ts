import { afterEach, describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { runCli } from "../daemon/daemon-process.js";
import { type LiveSetup, startLiveSetup } from "../daemon/live-setup.js";
import { FAKE_SLACK_TOKEN } from "../fake-slack/fake-slack-server.js";
import { unwrapLines } from "../support/unwrap-lines.js";

/**
 * A receiver (Slack, or a proxy on the way) that answers with an error quoting the request's
 * Authorization header: the token it quotes is redacted before the error is printed by `run`,
 * stored in the ledger and shown again by `history`.
 */

let live: LiveSetup | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

async function cli(setup: LiveSetup, ...args: string[]) {
  const run = runCli([...args, "--config", setup.configPath], setup.env);
  const out: string[] = [];
  run.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const { code } = await run.exit;
  return { code, out: out.join(""), logs: JSON.stringify(run.logs), text: run.text.join("\n") };
}

describe("a token echoed in an error", () => {
  it("is redacted from run's output and log, the ledger and history", async () => {
    live = await startLiveSetup();
    live.slack.failNext("chat.postMessage", "echo_auth");

    const run = await cli(live, "run", "--team", "checkout", "--digest", "weekly");
    expect(run.code).toBe(1);
    expect(unwrapLines(run.out)).toMatch(/✗ slack:C0123ABCD failed: .*Bearer \[redacted\]/);
    for (const printed of [run.out, run.logs, run.text]) {
      expect(printed).not.toContain(FAKE_SLACK_TOKEN);
    }

    const ledger = openLedger(live.ledgerPath);
    try {
      const [slot] = await ledger.history({ limit: 1 });
      const [slack] = slot?.deliveries ?? [];
      expect(slack?.state).toBe("failed");
      expect(slack?.lastError).toContain("Bearer [redacted]");
      expect(slack?.lastError).not.toContain(FAKE_SLACK_TOKEN);
    } finally {
      await ledger.close();
    }

    const history = await cli(live, "history");
    expect(history.code).toBe(0);
    expect(history.out).toContain("Bearer [redacted]");
    expect(history.out).not.toContain(FAKE_SLACK_TOKEN);
  });
});
