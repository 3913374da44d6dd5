import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { runCli } from "../daemon/daemon-process.js";
import { type AlertSetup, startAlertSetup } from "./alert-fixture.js";

// `alerts` at a terminal with Slack refusing connections (SLACK_API_URL at a closed port): it
// once retried each call for some 40 s before saying so. Now one attempt, an error that names
// the fix, exit 1, and the failure recorded for the daemon's retries.

let setup: AlertSetup;
beforeAll(async () => {
  setup = await startAlertSetup({ today: "2026-11-23", schedule: "0 9 * * *" });
});
afterAll(() => setup?.close());

/** A port on loopback that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe("alerts with Slack unreachable", () => {
  it("fails the Slack delivery after one attempt, names the fix and leaves it to the daemon", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/`;
    const cli = runCli(
      [
        "alerts",
        ...["--team", "design", "--alert", "flaky-rate"],
        ...["--at", "2026-11-19T08:00:00Z", "--config", setup.configPath],
      ],
      { ...setup.env, SLACK_API_URL: url },
    );
    // "close": the output and the logs read to their end, not only the process gone.
    const closed = new Promise((done) => cli.child.once("close", done));
    const out: string[] = [];
    cli.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    const { code } = await cli.exit;
    await closed;
    const text = out.join("").replace(/\s+/g, " ");
    expect(code, text).toBe(1);
    expect(text).toMatch(/slack:C0123ABCD failed: could not reach Slack .*ECONNREFUSED/);
    expect(text).toContain("check the network, and SLACK_API_URL if it is set");
    // One request to the closed port, not the first attempt and five retries.
    const failedRequests = cli.logs.filter(
      (l) => l.msg === "Slack Web API client warning" && /ECONNREFUSED/.test(String(l.detail)),
    );
    expect(failedRequests).toHaveLength(1);
    // The mail went; Slack's send is due again, for the daemon.
    expect(setup.smtp.messages).toHaveLength(1);
    const ledger = openLedger(setup.ledgerPath);
    try {
      const due = await ledger.dueRetries(new Date(Date.now() + 24 * 3600_000));
      expect(due.map((r) => r.destination)).toContain("slack:C0123ABCD");
    } finally {
      await ledger.close();
    }
  });
});
