import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { type DaemonProcess, runCli } from "./daemon-process.js";
import { useLiveDaemons } from "./live-daemons.js";
import { digestPosts, type LiveSetup, waitFor } from "./live-setup.js";

/**
 * The real daemon as a child process (`node dist/cli.js start`), against the emulator and the
 * fake Slack started here: crashes, restarts, clean stops, a second daemon, signals.
 */

const daemons = useLiveDaemons();
const start = daemons.start;

async function slackDelivery(setup: LiveSetup) {
  const ledger = openLedger(setup.ledgerPath);
  try {
    const [slot] = await ledger.history({ limit: 1 });
    return {
      key: slot?.key,
      slack: slot?.deliveries.find((d) => d.destination.startsWith("slack:")),
    };
  } finally {
    await ledger.close();
  }
}

// A full disk, met portably, root or not: the daemon's file-size limit (RLIMIT_FSIZE) lowered
// while it runs, through util-linux's prlimit, past which every write of its ledger fails as
// it would on a full disk; raised again, the disk has room.
const PRLIMIT = spawnSync("prlimit", ["--version"]).status === 0;
if (!PRLIMIT)
  console.warn("skipping the daemon's full-disk test: prlimit (util-linux) is not installed");

/** Sets the daemon's soft file-size limit (its hard one stays unlimited, so it can be raised). */
function fileSizeLimit(daemon: DaemonProcess, soft: string): void {
  const set = spawnSync("prlimit", [`--pid=${daemon.child.pid}`, `--fsize=${soft}:unlimited`]);
  expect(set.status, set.stderr.toString()).toBe(0);
}

async function ready(daemon: DaemonProcess): Promise<void> {
  const url = await daemon.opsUrl();
  await waitFor("/readyz 200", async () => (await fetch(`${url}/readyz`)).status === 200);
}

describe("the daemon as a process", () => {
  it("posts once; killed mid-post and restarted, it finds the post instead of posting again", async () => {
    // A restart looks for an interrupted post once it could no longer land: 2 s after it began.
    const live = await daemons.setup({ sendTimeout: "2s" });
    const setup = live;
    const held = setup.slack.holdNext("chat.postMessage"); // Slack makes the post; the answer never comes

    const first = start(setup);
    await held.arrived;
    expect((await slackDelivery(setup)).slack?.state).toBe("sending");
    first.child.kill("SIGKILL");
    expect(await first.exit).toEqual({ code: null, signal: "SIGKILL" });
    expect(digestPosts(setup.slack)).toHaveLength(1);

    const second = start(setup);
    await second.logged("found the earlier delivery after a restart; not sending again");
    await second.logged("digest done");
    const { key, slack } = await slackDelivery(setup);
    const [post] = digestPosts(setup.slack);
    expect(digestPosts(setup.slack)).toHaveLength(1);
    expect(post?.metadata?.event_payload.key).toBe(key);
    expect(slack).toMatchObject({ state: "sent", ref: post?.ts });
    expect(setup.slack.calls.map((c) => c.method)).toContain("conversations.history");

    // history works beside the running daemon.
    const history = runCli(["history", "--config", setup.configPath], setup.env);
    const historyOut: string[] = [];
    history.child.stdout?.on("data", (chunk: Buffer) => historyOut.push(chunk.toString()));
    expect((await history.exit).code).toBe(0);
    const table = historyOut.join("").split("\n");
    expect(table[0]).toMatch(/^FIRED \(UTC\)\s+SLOT$/);
    expect(table[1]).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+${key?.replace(/\./g, "\\.")}$`),
    );
    expect(table[2]).toMatch(/^ {2}slack:C0123ABCD\s+sent\s+2 tries$/);

    second.child.kill("SIGTERM");
    expect(await second.exit).toEqual({ code: 0, signal: null });
    await second.logged("daemon stopped");

    // A restart after a clean stop: the slot is delivered, nothing is posted.
    const postsBefore = setup.slack.calls.filter((c) => c.method === "chat.postMessage").length;
    const third = start(setup);
    await ready(third);
    third.child.kill("SIGTERM");
    expect(await third.exit).toEqual({ code: 0, signal: null });
    expect(setup.slack.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(
      postsBefore,
    );
    expect(digestPosts(setup.slack)).toHaveLength(1);
  });

  it("restarted at once after a kill mid-post that Slack stores only later, waits for it instead of posting again", async () => {
    const live = await daemons.setup({ sendTimeout: "6s" });
    const setup = live;
    // Slack stores the post 4 s after it arrives, and the answer never comes back.
    const held = setup.slack.holdNext("chat.postMessage", { storeAfterMs: 4_000 });
    const first = start(setup);
    await held.arrived;
    const arrivedAt = Date.now();
    first.child.kill("SIGKILL");
    await first.exit;
    expect(digestPosts(setup.slack)).toHaveLength(0); // not stored yet

    const second = start(setup);
    await second.logged("digest done");
    await held.stored; // the interrupted post is in the channel: a second one would be beside it
    expect(digestPosts(setup.slack)).toHaveLength(1);
    expect((await slackDelivery(setup)).slack).toMatchObject({
      state: "sent",
      ref: digestPosts(setup.slack)[0]?.ts,
    });
    // The history lookup came only once the interrupted post had been stored.
    const lookups = setup.slack.calls.filter(
      (c) => c.method === "conversations.history" && c.at > arrivedAt,
    );
    expect(lookups[0]?.at).toBeGreaterThanOrEqual(arrivedAt + 4_000);
  });

  it("killed after the main post, a restart finishes the workbook upload in its thread", async () => {
    const live = await daemons.setup({ sendTimeout: "2s", attachXlsx: true });
    const setup = live;
    // Every project fits in the message, so the parts are the post and the upload to its thread.
    const main = setup.slack.holdNext("chat.postMessage");
    const upload = setup.slack.holdNext("files.completeUploadExternal", { effect: "on-release" });
    const first = start(setup);
    await main.arrived;
    main.release();
    await upload.arrived; // the main post is out; the upload is not
    first.child.kill("SIGKILL");
    await first.exit;
    expect(setup.slack.uploads).toEqual([]);

    const second = start(setup);
    await second.logged("digest done");
    const [post] = digestPosts(setup.slack);
    expect(digestPosts(setup.slack)).toHaveLength(1);
    expect(setup.slack.uploads).toEqual([
      expect.objectContaining({ thread_ts: post?.ts, filename: expect.stringMatching(/\.xlsx$/) }),
    ]);
    expect((await slackDelivery(setup)).slack).toMatchObject({ state: "sent", ref: post?.ts });
  });

  it("killed after Slack took the workbook, then a chart, but before either was recorded, restarts find each in the thread instead of uploading it again", async () => {
    const live = await daemons.setup({
      sendTimeout: "3s",
      digests: [
        {
          name: "weekly",
          schedule: "* * * * *",
          period: "previous_week",
          catch_up: "1h",
          charts: {},
          slack: { channel: "C0123ABCD", attach_xlsx: true },
        },
      ],
    });
    const setup = live;
    // Slack shares each file at once, and its answer never reaches the daemon.
    const workbook = setup.slack.holdNext("files.completeUploadExternal");
    const chart = setup.slack.holdNext("files.completeUploadExternal");
    const filenames = () => setup.slack.uploads.map((u) => u.filename);

    const first = start(setup);
    await workbook.stored;
    first.child.kill("SIGKILL");
    await first.exit;
    expect(filenames()).toEqual([expect.stringMatching(/\.xlsx$/)]);

    const second = start(setup);
    await chart.stored;
    second.child.kill("SIGKILL");
    await second.exit;
    expect(filenames()).toEqual([
      expect.stringMatching(/\.xlsx$/),
      expect.stringMatching(/\.png$/),
    ]);

    const third = start(setup);
    await third.logged("digest done");
    const [post] = digestPosts(setup.slack);
    expect(digestPosts(setup.slack)).toHaveLength(1);
    // Every file once, all in the digest's thread: the workbook and the chart (Slack gets the
    // team's image alone, one per digest).
    const names = filenames();
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n.endsWith(".png")).length).toBe(1);
    for (const upload of setup.slack.uploads) expect(upload.thread_ts).toBe(post?.ts);
    const { key, slack } = await slackDelivery(setup);
    expect(slack).toMatchObject({ state: "sent", ref: post?.ts });
    // The two found in the thread are recorded as done, like the ones uploaded.
    const ledger = openLedger(setup.ledgerPath);
    try {
      const parts = await ledger.partsDone(String(key), String(slack?.destination));
      expect([...parts.keys()].sort()).toEqual(
        [
          "post",
          "upload",
          ...names.filter((n) => n.endsWith(".png")).map((n) => `upload ${n}`),
        ].sort(),
      );
    } finally {
      await ledger.close();
    }
    // Each restart read the thread before it sent anything.
    expect(setup.slack.calls.filter((c) => c.method === "conversations.replies")).toHaveLength(2);
  });

  it("notices its ledger deleted (not ready, and says so), and a restart on a fresh ledger looks before posting", async () => {
    const live = await daemons.setup();
    const setup = live;
    const first = start(setup);
    await first.logged("digest done");
    await ready(first);
    for (const suffix of ["", "-wal", "-shm"])
      rmSync(`${setup.ledgerPath}${suffix}`, { force: true });

    const url = await first.opsUrl();
    const body = await waitFor("/readyz 503", async () => {
      const res = await fetch(`${url}/readyz`);
      type Body = { checks: Record<string, { ok: boolean; detail: string }> };
      return res.status === 503 ? ((await res.json()) as Body) : null;
    });
    expect(body.checks.ledger).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/was deleted .* — /),
    });
    await first.logged("the ledger file is gone or replaced");
    first.child.kill("SIGTERM");
    expect((await first.exit).code).toBe(0);

    const second = start(setup);
    await second.logged("digest done");
    expect(digestPosts(setup.slack)).toHaveLength(1);
    expect((await slackDelivery(setup)).slack).toMatchObject({
      state: "sent",
      ref: digestPosts(setup.slack)[0]?.ts,
    });
  });

  it.skipIf(!PRLIMIT)(
    "answers /readyz 503 naming the ledger and the fix while its disk is full, and 200 again once a write succeeds",
    async () => {
      const setup = await daemons.setup();
      const daemon = start(setup);
      await daemon.logged("digest done");
      await ready(daemon);
      const url = await daemon.opsUrl();

      // Its ledger's write-ahead log is longer than a byte: the next write (each tick renews
      // the daemon's lease) fails.
      fileSizeLimit(daemon, "1");
      type Body = { checks: Record<string, { ok: boolean; detail: string }> };
      const body = await waitFor("/readyz 503", async () => {
        const res = await fetch(`${url}/readyz`);
        return res.status === 503 ? ((await res.json()) as Body) : null;
      });
      expect(body.checks.ledger).toMatchObject({
        ok: false,
        detail: expect.stringContaining(`cannot write the ledger ${setup.ledgerPath} (SQLITE_`),
      });
      expect(body.checks.ledger?.detail).toMatch(/ — free space on the disk/);

      fileSizeLimit(daemon, "unlimited");
      await ready(daemon);
      daemon.child.kill("SIGTERM");
      expect(await daemon.exit).toEqual({ code: 0, signal: null });
    },
  );

  it("refuses a second daemon on the same ledger with exit 2, and keeps its config on a bad SIGHUP", async () => {
    const live = await daemons.setup();
    const first = start(live);
    await ready(first);

    const second = start(live);
    expect((await second.exit).code).toBe(2);
    expect(unwrapLines(second.text.join("\n"))).toMatch(
      /is in use by another daemon: insights-reporter start \(pid \d+ on .*\) — stop the other daemon, or point state\.path elsewhere/,
    );

    writeFileSync(live.configPath, "teams: [oops\n");
    first.child.kill("SIGHUP");
    const refused = await first.logged(
      "SIGHUP: the config was not reloaded, the running one stays — fix the problems above and send SIGHUP again",
    );
    expect(String(refused.err)).toContain("reporter.yaml");
    await ready(first);
    first.child.kill("SIGTERM");
    expect((await first.exit).code).toBe(0);
  });

  it("lets a delivery in flight finish on SIGTERM, records it, and exits 0", async () => {
    const live = await daemons.setup();
    const held = live.slack.holdNext("chat.postMessage");
    const daemon = start(live);
    await held.arrived;
    daemon.child.kill("SIGTERM");
    await daemon.logged("stopping: waiting for slots in flight");
    held.release();
    expect(await daemon.exit).toEqual({ code: 0, signal: null });
    expect((await slackDelivery(live)).slack).toMatchObject({ state: "sent", attempts: 1 });
    expect(digestPosts(live.slack)).toHaveLength(1);
  });

  it("start --outbox writes files instead of posting, with a ledger of its own that history --outbox reads", async () => {
    const live = await daemons.setup();
    const outbox = join(live.dir, "outbox");
    const daemon = start(live, ["--outbox", outbox]);
    const done = await daemon.logged("digest done");
    const key = String(done.slot);
    expect(readdirSync(outbox)).toContain(`${key}.slack.json`);
    // Nothing written to an outbox is called sent: not in the log, nor in /metrics.
    expect(done.deliveries).toEqual({ "slack:C0123ABCD": "written to the outbox" });
    const metrics = await (await fetch(`${await daemon.opsUrl()}/metrics`)).text();
    expect(metrics).toMatch(/deliveries_total\{[^}]*destination="slack",result="outbox"\} 1/);
    expect(metrics).not.toMatch(/deliveries_total\{[^}]*result="sent"\}/);
    daemon.child.kill("SIGTERM");
    expect((await daemon.exit).code).toBe(0);
    expect(live.slack.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(0);
    expect(existsSync(live.ledgerPath)).toBe(false);

    const history = runCli(["history", "--config", live.configPath, "--outbox", outbox], live.env);
    const historyOut: string[] = [];
    history.child.stdout?.on("data", (chunk: Buffer) => historyOut.push(chunk.toString()));
    expect((await history.exit).code).toBe(0);
    expect(historyOut.join("")).toMatch(
      new RegExp(`${key.replace(/\./g, "\\.")}\\s+slack:C0123ABCD\\s+written to the outbox\\s+1`),
    );
  });

  it("exits at once on a second signal while a delivery hangs", async () => {
    const live = await daemons.setup();
    const held = live.slack.holdNext("chat.postMessage");
    const daemon = start(live);
    await held.arrived;
    daemon.child.kill("SIGTERM");
    await daemon.logged("stopping: waiting for slots in flight");
    daemon.child.kill("SIGTERM");
    expect(await daemon.exit).toEqual({ code: 143, signal: null });
    expect(daemon.logs.map((l) => l.msg)).toContain(
      "second signal: exiting now; interrupted deliveries are checked on the next start",
    );
  });
});
