import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load-config.js";
import { ConfigError } from "../../src/errors.js";
import { configText, fullEnv, issueLines, parse } from "./config-builders.js";

/**
 * Secrets are cleaned and checked where they are loaded: a key file saved with a BOM or a
 * second newline used to reach the HTTP client, which could not send it and hung.
 */

const dir = mkdtempSync(join(tmpdir(), "reporter-secret-values-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function refusal(env: NodeJS.ProcessEnv, text = configText()): ConfigError {
  try {
    parseConfigText(text, "reporter.yaml", { env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("secrets are cleaned when loaded", () => {
  it("drops a leading BOM and surrounding whitespace from NAME_FILE contents", () => {
    const env = fullEnv({
      INSIGHTS_API_KEY: undefined,
      INSIGHTS_API_KEY_FILE: secretFile("bom-key", "\ufeffkey-from-file\n\n"),
      SLACK_BOT_TOKEN: undefined,
      SLACK_BOT_TOKEN_FILE: secretFile("crlf-token", "  xoxb-from-file\r\n\r\n"),
      SMTP_URL: undefined,
      SMTP_URL_FILE: secretFile("smtp-url", "smtp://u:p@127.0.0.1:25\n\n"),
    });
    const result = parse(configText(), { env });
    if ("issues" in result) throw new Error(issueLines(result).join("\n"));
    expect(result.config.api.key.reveal()).toBe("key-from-file");
    expect(result.config.slack.token?.reveal()).toBe("xoxb-from-file");
    expect(result.config.email.smtpUrl?.reveal()).toBe("smtp://u:p@127.0.0.1:25");
  });

  it("drops the carriage return a CRLF env file leaves on a secret variable", () => {
    const result = parse(configText(), { env: fullEnv({ INSIGHTS_API_KEY: "key-from-env\r" }) });
    if ("issues" in result) throw new Error(issueLines(result).join("\n"));
    expect(result.config.api.key.reveal()).toBe("key-from-env");
  });
});

describe("secrets that cannot be sent are refused, naming the variable and never the value", () => {
  const VALUE = "SEKRIT-7f3a9c";

  it.each([
    [
      "a control character inside a key file",
      {
        INSIGHTS_API_KEY: undefined,
        INSIGHTS_API_KEY_FILE: secretFile("two-lines", `${VALUE}\nsecond-line\n`),
      },
      "api.key: ${INSIGHTS_API_KEY}: INSIGHTS_API_KEY_FILE holds a control character (a line break, tab or the like) inside the value — save the file with the value alone, on one line",
    ],
    [
      "a control character in a variable",
      { SLACK_BOT_TOKEN: `xoxb-${VALUE}\u0007` },
      "slack.token: ${SLACK_BOT_TOKEN}: SLACK_BOT_TOKEN holds a control character (a line break, tab or the like) inside the value — set it to the value alone",
    ],
    [
      "a character outside Latin-1 in the API key",
      { INSIGHTS_API_KEY: `${VALUE}\u2013x` },
      "api.key: ${INSIGHTS_API_KEY}: INSIGHTS_API_KEY holds a character that cannot be sent in an HTTP header (outside Latin-1, such as a typographic dash or a zero-width space from a copy-paste) — copy the value again as plain text",
    ],
    [
      "a zero-width space in the Slack token",
      { SLACK_BOT_TOKEN: `xoxb-${VALUE}\u200b` },
      "slack.token: ${SLACK_BOT_TOKEN}: SLACK_BOT_TOKEN holds a character that cannot be sent in an HTTP header",
    ],
  ])("%s", (_case, overrides, expected) => {
    const error = refusal(fullEnv(overrides));
    expect(error.exitCode).toBe(2);
    expect(error.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      expect.stringContaining(expected),
    ]);
    expect(`${error.message}\n${JSON.stringify(error.issues)}`).not.toContain(VALUE);
  });

  it("refuses a key written in the file itself that cannot be sent in a header", () => {
    const error = refusal(fullEnv(), configText({ "api.key": `${VALUE}\u00a0\u2014` }));
    expect(error.issues.map((i) => i.path)).toEqual(["api.key"]);
    expect(error.message).toContain("cannot be sent in an HTTP header");
    expect(error.message).not.toContain(VALUE);
  });

  it("accepts a password outside Latin-1 in SMTP_URL, which travels in the URL, not a header", () => {
    const result = parse(configText(), {
      env: fullEnv({ SMTP_URL: "smtp://mailer:pässwörd✓@127.0.0.1:2525" }),
    });
    expect("issues" in result ? issueLines(result) : []).toEqual([]);
  });
});
