import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { unwrapLines } from "../support/unwrap-lines.js";
import { cliAgainstEmulator } from "./cli-fixture.js";
import { apiEnv, apiSection, IDS, writeConfig } from "./e2e-setup.js";
import { runCli } from "./run-cli.js";

// A first real digest in ten minutes: with only INSIGHTS_API_URL and INSIGHTS_API_KEY set, a
// newcomer lists the projects, writes a starter config and checks it online, each step telling
// what it could not check yet rather than refusing.

const cli = cliAgainstEmulator();

const fits = (text: string) => text.split("\n").every((line) => line.length <= 80);

describe("the first hour", () => {
  it("projects lists the workspace with only INSIGHTS_API_URL and INSIGHTS_API_KEY, no config file", async () => {
    const result = await runCli(["projects"], { env: apiEnv(cli.emulator.url), cwd: cli.dir });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("id       name");
    expect(lines).toContain(`${IDS.webE2e}  Web E2E`);
  });

  it("projects with neither a config nor the API variables names both ways to give the API", async () => {
    const result = await runCli(["projects"], { cwd: cli.dir });
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain("INSIGHTS_API_URL");
    expect(unwrapLines(result.stderr)).toContain("--config");
  });

  it("check-config --online with only the API set checks the key and projects, and lists what it skipped", async () => {
    const path = await writeConfig(
      cli.dir,
      {
        api: apiSection(),
        teams: [
          {
            name: "t",
            timezone: "UTC",
            projects: [{ id: IDS.webE2e }],
            digests: [
              { name: "d", schedule: "0 9 * * 1", slack: { channel: "C0123ABCD" } },
              { name: "m", schedule: "0 9 * * 1", email: { to: ["qa@example.com"] } },
            ],
          },
        ],
      },
      "online.yaml",
    );
    const result = await runCli(["check-config", "--online", "--config", path], {
      env: apiEnv(cli.emulator.url),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("insights API: key accepted");
    expect(result.stdout).toContain("team t: all 1 project found");
    expect(result.stdout).toContain("Slack: not checked — SLACK_BOT_TOKEN is not set");
    expect(result.stdout).toContain("Email: not checked — SMTP_URL is not set");
    expect(fits(result.stdout)).toBe(true);
  });

  it("init writes a starter config for the workspace's projects that check-config accepts", async () => {
    const out = join(cli.dir, "reporter.yaml");
    const env = apiEnv(cli.emulator.url);
    const init = await runCli(
      ["init", "--channel", "#qa", "--out", out, "--timezone", "Europe/Berlin"],
      { env, cwd: cli.dir },
    );
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(out);
    expect(fits(init.stdout)).toBe(true);
    const written = parse(await readFile(out, "utf8"));
    const [team] = written.teams;
    expect(team.timezone).toBe("Europe/Berlin");
    expect(team.projects.map((p: { id: string }) => p.id)).toEqual(
      cli.emulator.projects.map((p) => p.id),
    );
    expect(team.digests).toHaveLength(1);
    expect(team.digests[0].slack.channel).toBe("#qa");
    expect(team.digests[0].period).toBe("previous_week");

    const check = await runCli(["check-config", "--config", out], { env });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain("valid — 1 team, 1 digest");

    const again = await runCli(["init", "--channel", "#qa", "--out", out], { env });
    expect(again.code).toBe(2);
    expect(unwrapLines(again.stderr)).toContain("already exists");
  });

  it("init refuses options its starter config could not load with, names the fix and writes nothing", async () => {
    const out = join(cli.dir, "empty-channel.yaml");
    const init = await runCli(["init", "--channel", "", "--out", out], {
      env: apiEnv(cli.emulator.url),
      cwd: cli.dir,
    });
    expect(init.code).toBe(2);
    expect(unwrapLines(init.stderr)).toMatch(
      /slack\.channel: .* nothing was written — give --channel a channel id/,
    );
    await expect(readFile(out, "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("init takes the machine's zone when --timezone is not given", async () => {
    const out = join(cli.dir, "machine-zone.yaml");
    const result = await runCli(["init", "--channel", "C0123ABCD", "--out", out], {
      env: { ...apiEnv(cli.emulator.url), TZ: "America/Chicago" },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(parse(await readFile(out, "utf8")).teams[0].timezone).toBe("America/Chicago");
  });
});
