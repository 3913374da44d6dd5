import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unwrapLines } from "../support/unwrap-lines.js";
import { cliAgainstEmulator } from "./cli-fixture.js";
import { apiEnv, apiSection, IDS, writeConfig } from "./e2e-setup.js";
import { runCli } from "./run-cli.js";

/** What a newcomer meets in the first minutes: ids, the version, one error style, the demo config. */

const cli = cliAgainstEmulator();

const ROOT = new URL("../../", import.meta.url).pathname;

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}

describe("first minutes", () => {
  it("projects lists the workspace's ids and names, with only the API key set", async () => {
    const path = await writeConfig(cli.dir, {
      api: apiSection(),
      teams: [
        {
          name: "t",
          timezone: "UTC",
          projects: [{ id: IDS.webE2e }],
          digests: [{ name: "d", schedule: "0 9 * * *", slack: { channel: "C0123ABCD" } }],
        },
      ],
    });
    const result = await runCli(["projects", "--config", path], { env: apiEnv(cli.emulator.url) });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("id       name");
    expect(lines).toContain(`${IDS.webE2e}  Web E2E`);
    expect(lines).toContain(`${IDS.billing}  Billing & Invoices`);
  });

  it("--version prints the package's version", async () => {
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
    const result = await runCli(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it("every usage error, commander's included, is one line in the tool's own style, exit 2", async () => {
    const cases: [string[], string][] = [
      [["run", "--team", "t"], "required option '--digest <digest>' not specified"],
      [["nope"], "unknown command 'nope'"],
      [["run", "--team", "t", "--digest", "d", "--at", "soon"], '"soon" is not an ISO date'],
    ];
    // Side by side: each is a process start, and the suite's time budget is tight.
    const results = await Promise.all(cases.map(([args]) => runCli(args)));
    for (const [i, result] of results.entries()) {
      expect(result.code).toBe(2);
      const lines = unwrapLines(result.stderr).trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^insights-reporter: /);
      expect(lines[0]).toContain(cases[i]?.[1]);
    }
  });

  it("check-config on the demo config needs no Slack or SMTP credentials, and notes what sending needs", async () => {
    const result = await runCli(["check-config", "--config", join(ROOT, "config/demo.yaml")], {
      env: apiEnv(cli.emulator.url),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("config/demo.yaml: valid");
    expect(result.stdout).toMatch(/note: \d+ destinations in Slack: set SLACK_BOT_TOKEN to send/);
    expect(result.stdout).toMatch(/note: \d+ destinations by email: set SMTP_URL to send/);
  });

  it("when stderr is not a terminal, the human message is the last line, after any JSON log line", async () => {
    const path = await writeConfig(
      cli.dir,
      {
        api: apiSection({ max_attempts: 1 }),
        state: { path: join(cli.dir, "ledger.sqlite") },
        teams: [
          {
            name: "t",
            timezone: "UTC",
            projects: [{ id: IDS.webE2e }],
            digests: [{ name: "d", schedule: "0 9 * * *", slack: { channel: "C0123ABCD" } }],
          },
        ],
      },
      "refused.yaml",
    );
    const result = await runCli(
      ["run", "--team", "t", "--digest", "d", "--outbox", join(cli.dir, "out"), "--config", path],
      { env: apiEnv(cli.emulator.url, "wrong-key") },
    );
    expect(result.code).toBe(1);
    expect(lastLine(unwrapLines(result.stderr))).toMatch(/^insights-reporter: /);
  });
});
