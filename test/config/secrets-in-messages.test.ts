import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load-config.js";
import { ConfigError } from "../../src/errors.js";
import { configText, fullEnv } from "./config-builders.js";

const dir = mkdtempSync(join(tmpdir(), "reporter-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRETS = {
  apiKey: "SEKRIT-api-7f3a9c",
  slackToken: "xoxb-SEKRIT-slack-51",
  smtpPassword: "SEKRIT-smtp-pw",
  fromFile: "SEKRIT-file-val",
  literal: "SEKRIT-literal-in-yaml",
};

function thrown(text: string, env: NodeJS.ProcessEnv): ConfigError {
  try {
    parseConfigText(text, "secrets.yaml", { env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("secrets in config messages", () => {
  it("never shows a secret, wherever a mistake puts it", () => {
    const filePath = join(dir, "catch-up");
    writeFileSync(filePath, `${SECRETS.fromFile}\n`);
    const env = fullEnv({
      INSIGHTS_API_KEY: SECRETS.apiKey,
      SLACK_BOT_TOKEN: SECRETS.slackToken,
      SMTP_PASSWORD: SECRETS.smtpPassword,
      CATCH_UP_FILE: filePath,
    });
    const text = configText({
      "api.url": "https://${INSIGHTS_API_KEY}.insights.test/api",
      "api.concurrency": "${SLACK_BOT_TOKEN}",
      "email.smtp_url": "ftp://mailer:${SMTP_PASSWORD}@mail.example.com",
      "teams[0].timezone": "${INSIGHTS_API_KEY}",
      "teams[0].digests[0].period": "${SLACK_BOT_TOKEN}",
      "teams[0].digests[0].catch_up": "${CATCH_UP}",
      "teams[1].name": SECRETS.literal,
      "teams[1].timezone": "${SMTP_PASSWORD}",
      "slack.token": SECRETS.literal,
    });
    const error = thrown(text, env);
    const paths = error.issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "api.url",
        "api.concurrency",
        "email.smtp_url",
        "teams[0].timezone",
        "teams[0].digests[0].period",
        "teams[0].digests[0].catch_up",
        "teams[1].name",
        "teams[1].timezone",
      ]),
    );
    const everything = [
      error.message,
      String(error),
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
      JSON.stringify(error.issues),
      JSON.stringify(error.context),
    ].join("\n");
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    // The mistakes are still shown, with the secret replaced.
    expect(error.message).toContain(
      'teams[0] (checkout).timezone: "[redacted]" is not an IANA time zone',
    );
  });

  it("keeps the resolved secrets wrapped so printing the config shows none", () => {
    const env = fullEnv({ INSIGHTS_API_KEY: SECRETS.apiKey, SLACK_BOT_TOKEN: SECRETS.slackToken });
    const config = parseConfigText(configText(), "ok.yaml", { env });
    const printed = [inspect(config, { depth: 10 }), JSON.stringify(config)].join("\n");
    expect(printed).not.toContain(SECRETS.apiKey);
    expect(printed).not.toContain(SECRETS.slackToken);
    expect(printed).not.toContain("mail-pass");
    expect(config.api.key.reveal()).toBe(SECRETS.apiKey);
  });

  it("never quotes a file that is not a mapping of settings (a token file passed as --config)", () => {
    const token = "xoxb-1234-5678-SEKRITabcdef";
    const cases = [
      { text: `${token}\n`, says: "is a plain string, not a YAML mapping of settings" },
      { text: `SLACK_BOT_TOKEN=${token}\n`, says: "is a plain string" },
      { text: "8675309\n", says: "is a number, not a YAML mapping of settings" },
      { text: `- ${token}\n- second\n`, says: "is a list, not a YAML mapping of settings" },
    ];
    for (const { text, says } of cases) {
      const error = thrown(text, fullEnv());
      expect(error.message).toContain(says);
      expect(error.message).toContain("--config");
      expect(error.message).not.toContain(token);
      expect(error.message).not.toContain("8675309");
    }
  });
});
