import { describe, expect, it } from "vitest";
import { createClients } from "../../src/create-deps.js";
import { createLogger } from "../../src/logger.js";
import { configText, fullEnv, issueLines, parse } from "./config-builders.js";

// `slack.app_token` (issue 24): Socket Mode's app-level token, from SLACK_APP_TOKEN unless the
// file names it; absent, nothing opens. A bot token in its place is named as the wrong kind.

function loaded(text: string, env: NodeJS.ProcessEnv) {
  const result = parse(text, { env });
  if ("issues" in result) throw new Error(issueLines(result).join("\n"));
  return result.config;
}

describe("slack.app_token", () => {
  it("is null when neither the file nor SLACK_APP_TOKEN sets it", () => {
    expect(loaded(configText(), fullEnv()).slack.appToken).toBeNull();
  });

  it("comes from SLACK_APP_TOKEN as a Secret that prints redacted", () => {
    const config = loaded(configText(), fullEnv({ SLACK_APP_TOKEN: "xapp-1-A0APP-1-abcdef" }));
    expect(config.slack.appToken?.reveal()).toBe("xapp-1-A0APP-1-abcdef");
    expect(JSON.stringify(config.slack)).not.toContain("abcdef");
    expect(String(config.slack.appToken)).toBe("[redacted]");
  });

  it("refuses a bot token in its place, saying which token is needed, without echoing it", () => {
    const result = parse(configText(), {
      env: fullEnv({ SLACK_APP_TOKEN: "xoxb-bot-token-in-the-wrong-place" }),
    });
    const lines = issueLines(result).join("\n");
    expect(lines).toContain("slack.app_token");
    expect(lines).toContain("starts with xapp-");
    expect(lines).not.toContain("wrong-place");
  });

  it("is what puts Acknowledge and Snooze on alert messages: with it, and only with it", async () => {
    const logger = createLogger({ level: "silent" });
    const token = { SLACK_APP_TOKEN: "xapp-1-A0APP-1-abcdef" };
    for (const [env, shown] of [
      [fullEnv(), false],
      [fullEnv(token), true],
    ] as const) {
      const clients = createClients(loaded(configText(), env), { logger });
      expect(clients.slackButtons).toBe(shown);
      await clients.close();
    }
  });
});
