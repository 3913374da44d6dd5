import { describe, expect, it } from "vitest";
import { tryParseConfigText } from "../../src/config/load-config.js";
import { configText, fullEnv, issueLines } from "./config-builders.js";

// `alerts --team payments` posts only payments' jobs: it must not refuse to run because
// another team emails and SMTP_URL is not set.

const text = configText({
  "teams[1].digests[0]": { name: "daily", schedule: "30 8 * * 1-5", slack: { channel: "C0PAY" } },
});
const env = fullEnv({ SMTP_URL: undefined });

describe("credentials for a command run for one team", () => {
  it("needs only that team's: a Slack-only team runs without SMTP_URL", () => {
    const result = tryParseConfigText(text, "test.yaml", { env, credentialsFor: "payments" });
    expect("config" in result).toBe(true);
  });

  it("still needs them for the team that emails, and for the whole config", () => {
    const lines = (credentialsFor?: string) =>
      issueLines(
        tryParseConfigText(text, "test.yaml", {
          env,
          ...(credentialsFor ? { credentialsFor } : {}),
        }),
      );
    expect(lines("checkout")).toEqual([
      expect.stringMatching(
        /^email\.smtp_url: \$\{SMTP_URL\} is not set .*teams\[0\]\.digests\[0\]\.email/,
      ),
    ]);
    expect(lines()).toHaveLength(1);
  });
});
