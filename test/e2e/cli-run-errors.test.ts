import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FAKE_SLACK_TOKEN } from "../fake-slack/fake-slack-server.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { AT, type RunFixture, SMTP_PASS, SMTP_USER, startRunFixture } from "./cli-run-fixture.js";
import { API_KEY, apiEnv } from "./e2e-setup.js";

/**
 * `insights-reporter run` when something is wrong: Slack refuses, the key is refused, the
 * config or the command line is bad. Exit codes, messages that name the fix, and no secret
 * in any output.
 */

let f: RunFixture;
const secretsDir = mkdtempSync(join(tmpdir(), "insights-e2e-secrets-"));
beforeAll(async () => {
  f = await startRunFixture();
});
afterAll(async () => {
  await f.close();
  rmSync(secretsDir, { recursive: true, force: true });
});

let secrets = 0;
/** A secret file with exactly this content, as a container would mount it. */
function writeSecret(content: string): string {
  const path = join(secretsDir, `secret-${++secrets}`);
  writeFileSync(path, content);
  return path;
}
afterEach(() => {
  f.reset();
});

describe("run, when something is wrong", () => {
  it("exits 1 and names the fix when the bot is not in the channel", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0OUTSIDE" } }]);
    const result = await f.run(path, "daily");
    expect(result.code).toBe(1);
    expect(result.stdout + unwrapLines(result.stderr)).toMatch(/invite the bot to .*C0OUTSIDE/);
    expect(f.slack.posts).toEqual([]);
  });

  it("exits 1 with Slack's refusal in words when chat.postMessage fails", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    f.slack.failNext("chat.postMessage", "not_in_channel");
    const result = await f.run(path, "daily");
    expect(result.code).toBe(1);
    expect(unwrapLines(result.stdout)).toMatch(
      /slack:C0123ABCD failed: the bot is not a member .* invite the bot/,
    );
  });

  it("still emails when Slack fails for the same digest, and exits 1", async () => {
    const path = await f.config([
      {
        name: "both",
        slack: { channel: "C0123ABCD" },
        email: { to: ["qa-leads@example.com"], attach_xlsx: false },
      },
    ]);
    f.slack.failNext("chat.postMessage", "invalid_auth");
    const result = await f.run(path, "both");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/slack:C0123ABCD failed: the Slack token was refused/);
    expect(result.stdout).toContain("\u2713 email:qa-leads@example.com sent");
    expect(f.smtp.messages).toHaveLength(1);
    expect(f.slack.posts).toEqual([]);
  });

  it("exits 1 naming the SMTP login as the fix when the password is refused, without printing it", async () => {
    const path = await f.config([{ name: "mail", email: { to: ["qa-leads@example.com"] } }]);
    const wrong = f.smtp.url({ user: SMTP_USER, pass: "wrong-smtp-pass-3k" });
    const result = await f.run(path, "mail", f.env({ SMTP_URL: wrong }));
    expect(result.code).toBe(1);
    expect(unwrapLines(result.stdout)).toMatch(/email:qa-leads@example\.com failed: .*SMTP_URL/);
    expect(result.stdout + unwrapLines(result.stderr)).not.toContain("wrong-smtp-pass-3k");
    expect(f.smtp.messages).toEqual([]);
  });

  it("fails the whole run on a refused API key: exit 1, the key's fix named, nothing posted", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    const result = await f.run(path, "daily", f.env(apiEnv(f.emulator.url, "wrong-key-7c1d")));
    expect(result.code).toBe(1);
    expect(unwrapLines(result.stderr)).toContain("the API key was refused");
    expect(unwrapLines(result.stderr)).toContain("INSIGHTS_API_KEY");
    expect(result.stdout + unwrapLines(result.stderr)).not.toContain("wrong-key-7c1d");
    expect(f.slack.posts).toEqual([]);
  });

  it("refuses a bad config with exit 2, naming the path of each problem", async () => {
    const path = await f.config([
      { name: "daily", schedule: "0 9 * *", slack: { channel: "C0123ABCD" } },
    ]);
    const result = await f.run(path, "daily");
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain("teams[0] (checkout).digests[0] (daily).schedule");
    expect(unwrapLines(result.stderr)).toContain(path);
    expect(f.slack.posts).toEqual([]);
  });

  it("reads a key file saved with a BOM and a blank last line, and refuses one with a second line (exit 2, the variable named)", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    const keyFile = (content: string) =>
      f.env({ INSIGHTS_API_KEY: "", INSIGHTS_API_KEY_FILE: writeSecret(content) });
    const saved = await f.run(path, "daily", keyFile(`\ufeff${API_KEY}\n\n`));
    expect(saved.code, saved.stdout + saved.stderr).toBe(0);
    const twoLines = await f.run(path, "daily", keyFile(`${API_KEY}\nsecond line\n`));
    expect(twoLines.code).toBe(2);
    expect(unwrapLines(twoLines.stderr)).toContain(
      "INSIGHTS_API_KEY_FILE holds a control character",
    );
    expect(twoLines.stdout + unwrapLines(twoLines.stderr)).not.toContain(API_KEY);
  });

  it("refuses an unknown --team with exit 2, listing the teams there are", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    const result = await f.cli([
      "run",
      "--team",
      "nope",
      "--digest",
      "daily",
      "--at",
      AT,
      "--config",
      path,
    ]);
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain('no team "nope"');
    expect(unwrapLines(result.stderr)).toContain("teams: checkout");
  });

  it("refuses an unknown --digest with exit 2, listing the digests there are", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    const result = await f.run(path, "weekly");
    expect(result.code).toBe(2);
    expect(unwrapLines(result.stderr)).toContain('no digest "weekly"');
    expect(unwrapLines(result.stderr)).toContain("digests: daily");
  });
});

describe("check-config --online", () => {
  it("accepts the key and the Slack token, and names a project the workspace does not have (exit 1)", async () => {
    const good = await f.cli([
      "check-config",
      "--online",
      "--config",
      await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]),
    ]);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toContain("key accepted");

    const ghost = await f.cli([
      "check-config",
      "--online",
      "--config",
      await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }], [{ id: "zzghost" }]),
    ]);
    expect(ghost.code).toBe(1);
    expect(ghost.stdout).toContain('project "zzghost" not in this workspace');
  });
});

describe("secrets", () => {
  it("never print the API key, the Slack token or the SMTP password, whatever happened", () => {
    expect(f.outputs.length).toBeGreaterThanOrEqual(12);
    const all = f.outputs.join("\n");
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain(FAKE_SLACK_TOKEN);
    expect(all).not.toContain(SMTP_PASS);
  });
});
