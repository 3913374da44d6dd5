import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "../daemon/daemon-process.js";
import { useLiveDaemons } from "../daemon/live-daemons.js";
import { waitFor } from "../daemon/live-setup.js";
import { runCli } from "../e2e/run-cli.js";
import { FAKE_WEBHOOK_SECRET, startFakeReceiver } from "../fake-webhooks/fake-receiver.js";
import { FAKE_TEAMS_SIG, startFakeTeams } from "../fake-webhooks/fake-teams.js";
import { unwrapLines } from "../support/unwrap-lines.js";

/**
 * ADR 0005 for the destinations that cannot be searched, tested as it is written: the daemon
 * SIGKILLed after the Teams workflow and the webhook receiver took the digest and before their
 * answers reached it (so before the ledger recorded them). The next daemon sends each once
 * more, after the claim has expired, with the same Idempotency-Key; and never a third time.
 */

const daemons = useLiveDaemons();

function logged(
  daemon: DaemonProcess,
  msg: string,
  where: (l: Record<string, unknown>) => boolean,
) {
  return waitFor(`log "${msg}"`, () => daemon.logs.find((l) => l.msg === msg && where(l)), 30_000);
}

describe("a kill between send and record, for a Teams workflow and a signed webhook", () => {
  it("resends once with the same Idempotency-Key, and never twice", async () => {
    const [teams, receiver] = await Promise.all([startFakeTeams(), startFakeReceiver()]);
    try {
      const live = await daemons.setup({
        sendTimeout: "1s",
        digests: [
          {
            name: "weekly",
            schedule: "* * * * *", // due at start; every fire of a week is the same slot
            period: "previous_week",
            catch_up: "10m",
            msteams: { webhook_url: teams.url },
            webhook: { url: receiver.url, secret: FAKE_WEBHOOK_SECRET },
          },
        ],
      });

      // 1. Both receivers take the request; their answers never leave. The daemon dies.
      const card = teams.holdNext();
      const body = receiver.holdNext();
      const first = daemons.start(live);
      await Promise.all([card.arrived, body.arrived]);
      first.child.kill("SIGKILL");
      expect(await first.exit).toEqual({ code: null, signal: "SIGKILL" });
      card.neverAnswer();
      body.neverAnswer();
      const [key] = receiver.keys;
      expect(key).toMatch(/^checkout\.weekly\./);
      expect(teams.cards).toHaveLength(1);

      // 2. The next daemon finds the sends unrecorded and their claims expired: one resend each.
      const second = daemons.start(live);
      const done = await logged(second, "digest done", (l) => l.slot === key);
      expect(Object.values(done.deliveries as object)).toEqual(["sent", "sent"]);
      expect(receiver.keys).toEqual([key, key]);
      expect(receiver.accepted).toHaveLength(1); // the receiver dropped the repeat by its key
      // Teams keeps no idempotency key: the channel shows the card twice (ADR 0005's window).
      expect(teams.cards).toHaveLength(2);
      second.child.kill("SIGKILL");
      await second.exit;

      // 3. Recorded now: no further send, from the daemon or from `run`.
      const again = await runCli(
        ["run", "--team", "checkout", "--digest", "weekly", "--config", live.configPath],
        { env: live.env as Record<string, string> },
      );
      expect(again.code, again.stderr).toBe(0);
      expect(unwrapLines(again.stdout)).toMatch(
        /already delivered \(msteams:[0-9a-f]{12} sent, webhook:[0-9a-f]{12} sent\)/,
      );
      expect(receiver.keys).toEqual([key, key]);
      expect(teams.cards).toHaveLength(2);

      const history = await runCli(["history", "--config", live.configPath], {
        env: live.env as Record<string, string>,
      });
      const rows = history.stdout.split("\n").filter((l) => /(msteams|webhook):/.test(l));
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row).toMatch(/\s(msteams|webhook):[0-9a-f]{12}\s+sent\s/);
      const printed = [
        history.stdout,
        history.stderr,
        again.stdout,
        again.stderr,
        JSON.stringify(second.logs),
      ].join("\n");
      expect(printed).not.toContain(FAKE_TEAMS_SIG);
      expect(printed).not.toContain(FAKE_WEBHOOK_SECRET);
    } finally {
      await Promise.all([teams.close(), receiver.close()]);
    }
  }, 90_000);
});
