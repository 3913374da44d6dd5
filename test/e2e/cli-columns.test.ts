import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import stringWidth from "string-width";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEMO_PROJECT_COUNT } from "../../src/insights/emulator/project-catalog.js";
import { startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { acknowledgementKey, NOT_SENT_YET } from "../../src/pipeline/alert/acknowledge-stage.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { spikeToday, startAlertSetup } from "./alert-fixture.js";
import { type RunFixture, startRunFixture } from "./cli-run-fixture.js";
import { API_KEY, apiEnv, apiSection, tempDir, writeConfig } from "./e2e-setup.js";
import { requireBuiltCli, runCli } from "./run-cli.js";

// Issue 39: every operator command fits 80 columns. Piped (as here: not a TTY, no COLUMNS), a
// command lays its output out for 80; each line is measured as a terminal counts it, by
// string-width (an emoji or a CJK character takes two columns).

const DEMO_CONFIG = fileURLToPath(new URL("../../config/demo.yaml", import.meta.url));

/** The lines of `stdout` wider than 80 columns, each with its width, to name in a failure. */
function tooWide(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => stringWidth(line) > 80)
    .map((line) => `${stringWidth(line)}: ${line}`);
}

interface DemoTeam {
  name: string;
  digests?: { name: string }[];
  alerts?: { name: string }[];
}

let teams: DemoTeam[];
let f: RunFixture;
beforeAll(async () => {
  teams = (parse(await readFile(DEMO_CONFIG, "utf8")) as { teams: DemoTeam[] }).teams;
  f = await startRunFixture({ projects: DEMO_PROJECT_COUNT });
});
afterAll(async () => {
  await f.close();
});

describe("at 80 columns", () => {
  it("the demo prints no line wider than 80 columns", async () => {
    requireBuiltCli();
    const dirs = await tempDir();
    try {
      // A short outbox path, as a newcomer's `--out out`: a path is never broken.
      const result = await runCli(["demo", "--at", "2026-11-23", "--out", "out"], {
        cwd: dirs.dir,
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(tooWide(result.stdout)).toEqual([]);
    } finally {
      await dirs.remove();
    }
  }, 70_000);

  it("preview of every digest and alert of the demo config, and of each team, fits", async () => {
    const at = ["--at", "2026-11-18", "--config", DEMO_CONFIG];
    const commands = teams.flatMap((t) => [
      ["preview", "--team", t.name, "--config", DEMO_CONFIG],
      ...(t.digests ?? []).map((d) => ["preview", "--team", t.name, "--digest", d.name, ...at]),
      ...(t.alerts ?? []).map((a) => ["preview", "--team", t.name, "--alert", a.name, ...at]),
    ]);
    for (const args of commands) {
      const result = await f.cli(args);
      expect(result.code, `${args.join(" ")}\n${result.stderr}`).toBe(0);
      expect(tooWide(result.stdout), args.join(" ")).toEqual([]);
    }
  }, 120_000);

  it("run's lines fit: sent, a refused recipient, a project left out, and already delivered", async () => {
    const path = await f.config(
      [
        {
          name: "daily",
          slack: { channel: "C0123ABCD" },
          email: { to: ["qa-leads@example.com", "gone@example.com"] },
        },
      ],
      [{ id: "zzghost", name: "Ghost" }],
    );
    f.smtp.refuseRecipient("gone@example.com");
    const first = await f.run(path, "daily");
    expect(first.stdout).toMatch(/sent, but: /);
    expect(first.stdout).toMatch(/left out, unavailable/);
    expect(tooWide(first.stdout)).toEqual([]);
    const again = await f.run(path, "daily");
    expect(again.stdout).toMatch(/already delivered/);
    expect(tooWide(again.stdout)).toEqual([]);
  }, 60_000);
});

/** A loopback address nothing listens on: a connection to it is refused at once. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}/api/`;
}

describe("alerts at 80 columns", () => {
  it("alerts fits a fire's failed deliveries and, evaluated again, what the ledger says", async () => {
    const s = await startAlertSetup({ today: spikeToday(), schedule: "0 9 * * *" });
    try {
      // Slack refuses the connection: its failure says why and what to check, past 80 columns.
      const env = { ...s.env, SLACK_API_URL: await closedUrl() };
      const args = [
        "alerts",
        "--team",
        "design",
        "--alert",
        "flaky-rate",
        "--config",
        s.configPath,
      ];
      const first = await runCli(args, { env, cwd: s.dir });
      expect(first.code, first.stderr).toBe(1);
      expect(unwrapLines(first.stdout)).toMatch(/✗ slack:C0123ABCD failed: /);
      expect(tooWide(first.stdout)).toEqual([]);
      const again = await runCli(args, { env, cwd: s.dir });
      expect(unwrapLines(again.stdout)).toMatch(/: evaluated before, says the ledger /);
      // Not "sent as recorded" above a failed delivery: the recorded notification is retried.
      expect(unwrapLines(again.stdout)).toMatch(
        /the notification recorded then goes to each destination it has not reached:\n {2}✗ slack:C0123ABCD failed: /,
      );
      expect(tooWide(again.stdout)).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe("the other operator commands at 80 columns", () => {
  it("check-config, projects, init, backfill, store, export, silences and history fit", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    expect((await f.run(path, "daily")).code).toBe(0); // a slot for history to show
    const dirs = await tempDir();
    // backfill asks up to today by the real clock: an emulator of the same today answers it.
    const today = await startEmulator({ key: API_KEY, projects: DEMO_PROJECT_COUNT });
    const env = f.env(apiEnv(today.url));
    const from = new Date(Date.now() - 21 * 86_400_000).toISOString().slice(0, 10);
    const out = ["--out", join(dirs.dir, "review.xlsx"), "--config", path];
    try {
      const commands = [
        ["check-config", "--config", path],
        ["check-config", "--online", "--config", path],
        ["projects"],
        ["init", "--channel", "C0123ABCD", "--out", join(dirs.dir, "starter.yaml")],
        ["backfill", "--from", from, "--config", path],
        ["backfill", "--from", "2025-01-01", "--config", path],
        ["store", "--config", path],
        ["export", "--team", "checkout", "--from", from, "--to", "2099-12-31", ...out],
        ["alerts", "--silences", "--all", "--config", path],
        ["history", "--config", path],
      ];
      for (const args of commands) {
        const result = await f.cli(args, env);
        expect(result.code, `${args.join(" ")}\n${result.stdout}${result.stderr}`).toBe(0);
        expect(tooWide(result.stdout), args.join(" ")).toEqual([]);
      }
    } finally {
      await today.close();
      await dirs.remove();
    }
  }, 120_000);

  it("history fits an acknowledgement's slot: its key broken after a dot or colon, due to send", async () => {
    const dirs = await tempDir();
    try {
      const ledgerPath = join(dirs.dir, "ledger.sqlite");
      const path = await writeConfig(dirs.dir, {
        api: apiSection(),
        state: { path: ledgerPath },
        teams: [{ name: "design", timezone: "Europe/Berlin", projects: [{ id: "dlucmsz" }] }],
      });
      const key = acknowledgementKey(
        "design.alert.flaky-rate.2026-11-23",
        "acknowledge:C0123ABCD:1795848413.123456:1795848420.654321:U0123ABCD",
      );
      const ledger = openLedger(ledgerPath);
      await ledger.recordSlot({
        key,
        team: "design",
        kind: "acknowledgement",
        job: "flaky-rate",
        fireAt: new Date("2026-11-24T08:00:00Z"),
        period: { start: "2026-11-24", end: "2026-11-24" },
        destinations: ["slack:C0123ABCD", "pagerduty:4f2a9c"],
        owedRetry: { error: NOT_SENT_YET, dueAt: new Date("2026-11-24T08:01:00Z") },
      });
      await ledger.close();
      const result = await runCli(["history", "--config", path]);
      expect(result.code, result.stderr).toBe(0);
      expect(tooWide(result.stdout)).toEqual([]);
      // The key's parts, in the SLOT column under the first, joined are the key.
      const lines = result.stdout.split("\n");
      const first = lines.findIndex((line) => line.includes("design.alert.flaky-rate"));
      const parts = lines.slice(first, first + 2).map((line) => line.slice(18));
      expect(parts.join("")).toBe(key);
      expect(result.stdout).toMatch(/slack:C0123ABCD\s+due 2026-11-24 08:01\s+0 tries/);
    } finally {
      await dirs.remove();
    }
  });
});

describe("error messages at 80 columns", () => {
  it("stderr fits: a missing required option, init onto a file, several config problems, an unknown command", async () => {
    const dirs = await tempDir();
    try {
      // Paths relative to the command's directory, as an operator types them: a config's
      // header line then stays short of 80, whatever the temp dir's path.
      await writeFile(join(dirs.dir, "reporter.yaml"), "# a config already here\n");
      const digest = { name: "weekly", schedule: "0 9 * * 1", slack: { channel: "C0123ABCD" } };
      await writeConfig(
        dirs.dir,
        {
          api: apiSection(),
          teams: [
            {
              name: "checkout",
              timezone: "Europe/Berlin",
              projects: [{ id: "dlucmsz" }],
              digests: [
                { ...digest, window: "previous_day" },
                { ...digest, name: "monthly", window: "previous_month" },
              ],
            },
          ],
        },
        "broken.yaml",
      );
      const cases: { args: string[]; says: RegExp }[] = [
        {
          args: ["init", "--out", "reporter.yaml"],
          says: /required option '--channel <channel>' not specified — see insights-reporter init --help/,
        },
        {
          args: ["init", "--channel", "C0123ABCD", "--out", "reporter.yaml"],
          says: /already exists — init never overwrites a file: choose another --out, or move it away first/,
        },
        {
          args: ["check-config", "--config", "broken.yaml"],
          // Each problem on a line of its own, its path at the start.
          says: /^insights-reporter: broken\.yaml has 2 problems:\n {2}teams\[0\] \(checkout\)\.digests\[0\] \(weekly\)\.window: unknown key — allowed here: [^\n]+\n {2}teams\[0\] \(checkout\)\.digests\[1\] \(monthly\)\.window: unknown key — allowed here: [^\n]+\n$/,
        },
        {
          args: ["frobnicate"],
          says: /unknown command 'frobnicate' — see insights-reporter --help/,
        },
      ];
      for (const { args, says } of cases) {
        const result = await runCli(args, { env: f.env(), cwd: dirs.dir });
        expect(result.code, `${args.join(" ")}\n${result.stderr}`).toBe(2);
        expect(unwrapLines(result.stderr), args.join(" ")).toMatch(says);
        expect(tooWide(result.stderr), args.join(" ")).toEqual([]);
      }
    } finally {
      await dirs.remove();
    }
  });
});
