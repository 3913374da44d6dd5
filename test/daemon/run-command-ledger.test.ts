import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { runCli, startDaemonProcess } from "./daemon-process.js";
import { digestPosts, type LiveSetup, startLiveSetup, waitFor } from "./live-setup.js";

/** `run` records its slot in the daemon's ledger: neither it nor a later daemon sends it twice. */

let live: LiveSetup | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

async function run(setup: LiveSetup, ...extra: string[]) {
  return finished(startRun(setup, setup.env, ...extra));
}

function startRun(setup: LiveSetup, env: NodeJS.ProcessEnv, ...extra: string[]) {
  return runCli(
    ["run", "--team", "checkout", "--digest", "weekly", "--config", setup.configPath, ...extra],
    env,
  );
}

async function finished(cli: ReturnType<typeof runCli>) {
  const out: string[] = [];
  cli.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const { code } = await cli.exit;
  return { code, out: out.join("") };
}

describe("run and the ledger", () => {
  it("says a delivered slot was delivered, resends it only with --force, and a daemon leaves it alone", async () => {
    live = await startLiveSetup();
    const first = await run(live);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/✓ slack:C0123ABCD sent/);
    expect(digestPosts(live.slack)).toHaveLength(1);

    const again = await run(live);
    expect(again.code).toBe(0);
    expect(unwrapLines(again.out)).toMatch(
      /^checkout\.weekly\.\S+: the fire of .+\ncheckout\.weekly\.\S+: already delivered \(slack:C0123ABCD sent\), says the ledger .* — --force sends it again\n$/,
    );
    expect(digestPosts(live.slack)).toHaveLength(1);

    const forced = await run(live, "--force");
    expect(forced.code).toBe(0);
    expect(digestPosts(live.slack)).toHaveLength(2);
    // The resend records its parts like any send: a crash in it goes on from the new post.
    const [, resent] = digestPosts(live.slack);
    const ledger = openLedger(live.ledgerPath);
    try {
      const [slot] = await ledger.history({ limit: 1 });
      const parts = await ledger.partsDone(String(slot?.key), "slack:C0123ABCD");
      expect(parts.get("post")).toBe(resent?.ts);
    } finally {
      await ledger.close();
    }

    const daemon = startDaemonProcess(live.configPath, live.env);
    const url = String((await daemon.logged("daemon started")).ops);
    await waitFor("/readyz 200", async () => (await fetch(`${url}/readyz`)).status === 200);
    daemon.child.kill("SIGTERM");
    expect((await daemon.exit).code).toBe(0);
    expect(digestPosts(live.slack)).toHaveLength(2);
  });

  it("keeps a failed destination open for the daemon to retry, instead of failing it for good", async () => {
    live = await startLiveSetup();
    // Slack having trouble: worth retrying (a refused channel is given up, see retry-verdict).
    live.slack.failNext("chat.postMessage", "http500");
    const failed = await run(live);
    expect(failed.code).toBe(1);
    expect(unwrapLines(failed.out)).toMatch(
      /✗ slack:C0123ABCD failed: .*\(recorded; a running daemon retries it\)/,
    );
    expect(digestPosts(live.slack)).toHaveLength(0);

    const ledger = openLedger(live.ledgerPath);
    try {
      const [slot] = await ledger.history({ limit: 1 });
      expect(slot && (await ledger.isSlotDelivered(slot.key))).toBe(false);
      const [slack] = slot?.deliveries ?? [];
      expect(slack).toMatchObject({
        state: "failed",
        attempts: 1,
        lastError: expect.stringMatching(/HTTP 500/),
      });
      // Not the daemon's first retry step (a minute): an HTTP 500 may have posted all the same,
      // so the retry looks in the channel once send_timeout (5 min) has passed since the
      // attempt began, when such a post has landed or never will.
      const wait = (slack?.nextAttemptAt?.getTime() ?? 0) - (slack?.updatedAt.getTime() ?? 0);
      expect(wait).toBeGreaterThan(4 * 60_000);
      expect(wait).toBeLessThanOrEqual(5 * 60_000);
    } finally {
      await ledger.close();
    }
  });

  it("refuses to send a slot the daemon is sending at that moment (exit 1), so nothing is posted twice", async () => {
    live = await startLiveSetup();
    const held = live.slack.holdNext("chat.postMessage"); // the daemon's post hangs
    const daemon = startDaemonProcess(live.configPath, live.env);
    try {
      await held.arrived;
      const clash = await run(live);
      expect(clash.code).toBe(1);
      expect(unwrapLines(clash.out)).toMatch(
        /^checkout\.weekly\.\S+: the fire of .+\ncheckout\.weekly\.\S+: another process is sending it right now \(slack:C0123ABCD since .*\) — check `history` in a few minutes/,
      );
      held.release();
      await daemon.logged("digest done");
      expect(digestPosts(live.slack)).toHaveLength(1);
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exit;
    }
  });

  it("a run that got past its check before the daemon claimed the slot leaves the daemon's send alone", async () => {
    live = await startLiveSetup();
    const setup = live;
    // run's insights come slowly, so the daemon claims the slot while run is still fetching.
    const slowApi = await startEmulator({ projects: 3, latencyMs: 2_500 });
    // Slack has not stored the daemon's post yet when run would look for it.
    const held = setup.slack.holdNext("chat.postMessage", { effect: "on-release" });
    const cli = startRun(setup, { ...setup.env, INSIGHTS_API_URL: slowApi.url });
    // The daemon starts once run has checked and recorded the slot, so run is past its check
    // for certain when the daemon claims the slot (it fetches from the fast emulator).
    await waitFor("run to record the slot", async () => {
      const ledger = openLedger(setup.ledgerPath);
      try {
        return (await ledger.history({ limit: 1 })).length > 0;
      } finally {
        await ledger.close();
      }
    });
    const daemon = startDaemonProcess(setup.configPath, setup.env);
    try {
      await held.arrived;
      const clash = await finished(cli);
      held.release();
      await daemon.logged("digest done");
      expect(digestPosts(setup.slack)).toHaveLength(1);
      expect(clash.code).toBe(1);
      expect(unwrapLines(clash.out)).toMatch(/slack:C0123ABCD .*another process is sending it/);
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exit;
      await slowApi.close();
    }
  });
});
