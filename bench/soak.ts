import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { stringify } from "yaml";
import { startEmulator } from "../src/insights/emulator/start-emulator.js";
import { type DaemonProcess, startDaemonProcess } from "../test/daemon/daemon-process.js";
import { FAKE_SLACK_TOKEN, startFakeSlack } from "../test/fake-slack/fake-slack-server.js";
import { startSmtpServer } from "../test/smtp/start-smtp-server.js";
import { CLI, DAEMON_NODE_FLAGS, machine } from "./bench-support.js";
import { historyRow } from "./soak-history.js";
import { soakMarkdown } from "./soak-markdown.js";
import { startMonitor } from "./soak-monitor.js";
import { expectedSlots, minuteStarts, planFires, soakConfig } from "./soak-plan.js";
import { opsRows, type Row, resourceRows, rowsTable, slotRows, stopRow } from "./soak-report.js";
import { runRows } from "./soak-run-rows.js";
import { logArrivals, tallySlots } from "./soak-slots.js";

// `npm run soak`: the daemon, built, as users run it (`node --max-semi-space-size=2 dist/cli.js
// start`, as the image's entrypoint does), for SOAK_MINUTES (default 10) with a digest and an
// alert due every minute, against the emulator injecting faults, the fake Slack (rate-limiting
// a post now and then) and an SMTP server.
// It is watched only from outside: what arrives at the fakes, /proc and /metrics, its logs and
// `history`. Prints a table, writes bench/SOAK.md, and exits 1 when a check fails.
// SOAK_FAULTS replaces the emulator's fault spec; the work dir (config, ledger, the daemon's
// log, `history`) is removed after a pass unless SOAK_KEEP is set. Not part of `npm test` or CI.

const MINUTES = wholeNumber(process.env.SOAK_MINUTES ?? "10", "SOAK_MINUTES");
// As the fault suite: 429 with Retry-After 10%, 500/503 5%, resets 2%, answers slower
// than the 5 s API timeout 2%, malformed bodies 1%.
const FAULTS =
  process.env.SOAK_FAULTS ??
  "429:0.1,500:0.025,503:0.025,reset:0.02,slow:0.02,malformed:0.01,retry-after=1,slow-ms=8000";
// Enough projects that the API still meets the faults: the day store answers the days it
// holds, and asks again for a day not yet final only every 5 minutes, so 4 projects made 27
// requests in 10 minutes, 4 of them faulted.
const PROJECTS = 16;
const LEAD_MS = 20_000; // the first minute's fire comes at least this long after the start
const SETTLE_MS = 60_000; // the last minute's slots get this long to arrive
const GRACE_MS = 120_000; // and, only if some are missing, this much more
const STOP_WAIT_MS = 45_000; // the daemon's own shutdown grace is 30 s

function wholeNumber(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number ≥ 1, not "${text}"`);
  return n;
}

async function main(): Promise<number> {
  const startedIso = new Date().toISOString();
  const loadBefore = loadavg();
  const emulator = await startEmulator({ projects: PROJECTS, faults: FAULTS });
  const slack = await startFakeSlack();
  const smtp = await startSmtpServer();
  const dir = await mkdtemp(join(tmpdir(), "soak-"));
  let daemon: DaemonProcess | null = null;
  let passed = false;
  try {
    const fires = planFires(new Date(), MINUTES, LEAD_MS);
    const configPath = join(dir, "reporter.yaml");
    const projects = emulator.projects.slice(0, PROJECTS).map((p) => p.id);
    const ledgerPath = join(dir, "state", "ledger.sqlite");
    await writeFile(configPath, stringify(soakConfig({ fires, projects, ledgerPath })));
    const env = {
      INSIGHTS_API_URL: emulator.url,
      INSIGHTS_API_KEY: "demo-key",
      SLACK_BOT_TOKEN: FAKE_SLACK_TOKEN,
      SLACK_API_URL: slack.url,
      SMTP_URL: smtp.url(),
    };
    console.log(`soak: ${MINUTES} minutes from ${fires[0]?.toISOString()}; faults ${FAULTS}`);
    // Started as the Docker image and the systemd unit start it.
    const started = startDaemonProcess(configPath, env, DAEMON_NODE_FLAGS);
    daemon = started;
    let exited = false;
    void started.exit.then(() => {
      exited = true;
    });
    const opsUrl = await started.opsUrl();
    const startedAt = Date.now();
    console.log(`daemon pid ${started.child.pid}, ${opsUrl}/metrics; work dir ${dir}`);

    const log = logArrivals(slack, smtp);
    const monitor = await startMonitor({
      pid: started.child.pid ?? 0,
      opsUrl,
      startedAt,
      everySecond: () => void log.arrivals(),
      everyMinute: (minute) => {
        // Every third minute Slack rate-limits the next post once (Retry-After 1 s).
        if (minute % 3 === 1) slack.failNext("chat.postMessage", "ratelimited", { retryAfter: 1 });
        console.log(`  minute ${minute}: ${log.posted()} posts, ${smtp.messages.length} mails`);
      },
      posted: log.posted,
      exited: () => exited,
    });
    const windowEnd = (fires.at(-1)?.getTime() ?? startedAt) + SETTLE_MS;
    await monitor.watch(windowEnd);
    const expected = expectedSlots(fires, minuteStarts(new Date(startedAt), new Date(windowEnd)));
    const allArrived = () => tallySlots(expected, log.arrivals()).missing.length === 0;
    await monitor.watch(windowEnd + GRACE_MS, allArrived);

    const ranS = (Date.now() - startedAt) / 1000;
    const crashed = exited;
    const finalScrape = crashed ? null : await monitor.scrape();
    const cpuS = crashed ? Number.NaN : await monitor.cpuS();
    started.child.kill("SIGTERM");
    const exit = await Promise.race([started.exit, delay(STOP_WAIT_MS, null, { ref: false })]);
    const tally = tallySlots(expected, log.arrivals());
    // Past `history`'s default of 20 slots: every slot the soak expects, and any it does not.
    const limit = String(expected.length + 20);
    const history = spawnSync(
      process.execPath,
      [CLI, "history", "--config", configPath, "--limit", limit],
      {
        env: { PATH: process.env.PATH, ...env },
        encoding: "utf8",
      },
    );
    await writeFile(join(dir, "history.txt"), history.stdout + history.stderr);
    await writeFile(join(dir, "daemon.log"), started.logs.map((l) => JSON.stringify(l)).join("\n"));

    const logs = started.logs;
    const rows: Row[] = [
      ...slotRows(tally),
      historyRow(expected, history.stdout),
      ...resourceRows(monitor.rss, monitor.minutes),
      ...opsRows(monitor.health, monitor.minutes),
      stopRow({ crashed, exit, ranS, waitedS: STOP_WAIT_MS / 1000 }),
      ...runRows({ tally, cpuS, ranS, requestLog: emulator.requestLog, finalScrape, logs }),
    ];
    const table = rowsTable(rows);
    console.log(`\n${table}\n`);
    const run = { startedIso, machine: machine(), minutes: MINUTES, ranS, faults: FAULTS };
    await writeFile(
      new URL("./SOAK.md", import.meta.url),
      soakMarkdown(
        { ...run, projects: projects.length, loadBefore, loadAfter: loadavg(), logs },
        table,
        monitor.minutes,
        tally,
      ),
    );
    passed = rows.every((r) => r.ok !== false);
    console.log(
      passed ? "wrote bench/SOAK.md" : `soak FAILED (rows marked **missed**); see ${dir}`,
    );
    return passed ? 0 : 1;
  } finally {
    if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) {
      daemon.child.kill("SIGKILL");
    }
    await slack.close();
    await smtp.close();
    await emulator.close();
    if (passed && !process.env.SOAK_KEEP) await rm(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
