import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configText, fullEnv, issueLines, parse } from "./config-builders.js";

const dir = mkdtempSync(join(tmpdir(), "reporter-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function loaded(text: string, env: NodeJS.ProcessEnv, requireCredentials = true) {
  const result = parse(text, { env, requireCredentials });
  if ("issues" in result) throw new Error(issueLines(result).join("\n"));
  return result.config;
}

describe("${NAME} substitution", () => {
  it("replaces references anywhere in a string, several per value", () => {
    const text = configText({
      "api.url": "https://${WORKSPACE}.${HOST}/api/external/v1",
      "teams[0].projects[0].branch": "release-${TRAIN}",
    });
    const config = loaded(text, fullEnv({ WORKSPACE: "acme", HOST: "insights.test", TRAIN: "42" }));
    expect(config.api.url).toBe("https://acme.insights.test/api/external/v1");
    expect(config.teams[0]?.projects[0]?.branch).toBe("release-42");
  });

  it("writes a literal ${ for $${ and leaves keys and other text alone", () => {
    const text = configText({ "teams[0].title": "Costs in $${USD} for $5" });
    expect(loaded(text, fullEnv()).teams[0]?.title).toBe("Costs in ${USD} for $5");
  });

  it("reports an unset variable at its path with the variables to export", () => {
    const env = fullEnv({ INSIGHTS_API_KEY: undefined });
    expect(issueLines(parse(configText(), { env }))).toEqual([
      "api.key: ${INSIGHTS_API_KEY} is not set — export INSIGHTS_API_KEY (or INSIGHTS_API_KEY_FILE)",
    ]);
  });

  it("treats a variable set to the empty string as missing", () => {
    const env = fullEnv({ INSIGHTS_API_KEY: "" });
    expect(issueLines(parse(configText(), { env }))).toEqual([
      "api.key: ${INSIGHTS_API_KEY} is empty — export INSIGHTS_API_KEY (or INSIGHTS_API_KEY_FILE)",
    ]);
  });

  it("refuses a malformed reference instead of passing it through", () => {
    const text = configText({ "teams[0].title": "${not a name}", "teams[1].title": "${OPEN" });
    expect(issueLines(parse(text))).toEqual([
      "teams[0].title: ${not a name} is not a variable reference — names are letters, digits and _",
      'teams[1].title: "${" is not closed — write ${NAME}',
    ]);
  });
});

describe("NAME_FILE secrets", () => {
  it("reads the value from the file, without the line ending it was saved with", () => {
    const env = fullEnv({
      INSIGHTS_API_KEY: undefined,
      INSIGHTS_API_KEY_FILE: secretFile("api-key", "key-from-file\n"),
      SLACK_BOT_TOKEN: undefined,
      SLACK_BOT_TOKEN_FILE: secretFile("slack-token", "xoxb-from-file\r\n"),
      SMTP_URL: undefined,
      SMTP_URL_FILE: secretFile("smtp-url", "smtp://u:p@127.0.0.1:25\n"),
    });
    const config = loaded(configText(), env);
    expect(config.api.key.reveal()).toBe("key-from-file");
    expect(config.slack.token?.reveal()).toBe("xoxb-from-file");
    expect(config.email.smtpUrl?.reveal()).toBe("smtp://u:p@127.0.0.1:25");
  });

  it("prefers NAME over NAME_FILE when both are set", () => {
    const env = fullEnv({ INSIGHTS_API_KEY_FILE: secretFile("unused", "from-file") });
    expect(loaded(configText(), env).api.key.reveal()).toBe("test-api-key-0001");
  });

  it("falls back to NAME_FILE when NAME is empty", () => {
    const env = fullEnv({
      INSIGHTS_API_KEY: "",
      INSIGHTS_API_KEY_FILE: secretFile("k2", "k2-value"),
    });
    expect(loaded(configText(), env).api.key.reveal()).toBe("k2-value");
  });

  it("names the file and the fix when NAME_FILE cannot be read", () => {
    const missing = join(dir, "no-such-secret");
    const env = fullEnv({ INSIGHTS_API_KEY: undefined, INSIGHTS_API_KEY_FILE: missing });
    expect(issueLines(parse(configText(), { env }))).toEqual([
      `api.key: \${INSIGHTS_API_KEY}: INSIGHTS_API_KEY_FILE names ${missing}, which cannot be read (ENOENT) — point INSIGHTS_API_KEY_FILE at the file holding the value`,
    ]);
  });

  it("reports a NAME_FILE that names a directory", () => {
    const env = fullEnv({ INSIGHTS_API_KEY: undefined, INSIGHTS_API_KEY_FILE: dir });
    expect(issueLines(parse(configText(), { env }))[0]).toContain(
      `names ${dir}, which is a directory, not a file`,
    );
  });
});

describe("credentials from the environment", () => {
  it("uses SLACK_BOT_TOKEN, SMTP_URL and SLACK_API_URL when the file leaves them out", () => {
    const env = fullEnv({ SLACK_API_URL: "http://127.0.0.1:9999/api/" });
    const config = loaded(configText(), env);
    expect(config.slack.token?.reveal()).toBe("xoxb-test-token");
    expect(config.slack.apiUrl).toBe("http://127.0.0.1:9999/api/");
    expect(config.email.smtpUrl?.reveal()).toBe("smtp://mailer:mail-pass@127.0.0.1:2525");
  });

  it("prefers what the file says over the environment", () => {
    const text = configText({ "slack.api_url": "https://slack.example.test/api/" });
    const config = loaded(text, fullEnv({ SLACK_API_URL: "http://127.0.0.1:9999/api/" }));
    expect(config.slack.apiUrl).toBe("https://slack.example.test/api/");
  });

  it("leaves an optional credential out when its variable is unset and nothing needs it", () => {
    const env = fullEnv({
      SLACK_BOT_TOKEN: undefined,
      SMTP_URL: undefined,
      SLACK_API_URL: undefined,
    });
    const text = configText({
      "slack.token": "${SLACK_BOT_TOKEN}",
      "email.smtp_url": "${SMTP_URL}",
    });
    const config = loaded(text, env, false);
    expect(config.slack).toEqual({ token: null, apiUrl: null, appToken: null });
    expect(config.email.smtpUrl).toBeNull();
  });
});
