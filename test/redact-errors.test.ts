import { describe, expect, it } from "vitest";
import { parseConfigText } from "../src/config/load-config.js";
import { SlackDeliveryError, WebhookDeliveryError, worthRetrying } from "../src/errors.js";
import { configRedactor, redactError, redactingErrors } from "../src/redact-errors.js";
import { configText, fullEnv } from "./config/config-builders.js";

// The one redaction of configured secrets from errors (redact-errors.ts): read off the config's
// declared secret fields, applied to whatever a client rejects with, keeping the error's type.

const TOKEN = "xoxb-SEKRIT-51-token";
const config = parseConfigText(configText(), "redact.yaml", {
  env: fullEnv({ SLACK_BOT_TOKEN: TOKEN, SMTP_URL: "smtp://mailer:pa%24%24word-9@mail.test" }),
});
const redact = configRedactor(config);

describe("redacting configured secrets from errors", () => {
  it("redacts each secret field of the config, a URL's password as written and decoded", () => {
    expect(redact(`Bearer ${TOKEN}; pass pa$$word-9 or pa%24%24word-9`)).toBe(
      "Bearer [redacted]; pass [redacted] or [redacted]",
    );
  });

  it("keeps a typed error's class and verdict, redacting its message, fields and context", () => {
    const error = redactError(
      new SlackDeliveryError(
        `failed: ${TOKEN}`,
        `invalid: ${TOKEN}`,
        { detail: TOKEN },
        {
          retry: false,
        },
      ),
      redact,
    );
    expect(error).toBeInstanceOf(SlackDeliveryError);
    expect(worthRetrying(error)).toBe(false);
    expect(
      JSON.stringify([error.message, error.stack, error, (error as SlackDeliveryError).context]),
    ).not.toContain(TOKEN);
    expect((error as SlackDeliveryError).slackError).toBe("invalid: [redacted]");
  });

  it("makes a client reject only with redacted errors, leaving its answers and fields alone", async () => {
    const client = redactingErrors(
      {
        maxBytes: 10,
        ok: async () => `fine ${TOKEN.length}`,
        fail: async () => {
          throw new WebhookDeliveryError(`echoed ${TOKEN}`, 400, {}, { retry: false });
        },
        throws: () => {
          throw `plain ${TOKEN}`;
        },
      },
      redact,
    );
    expect(client.maxBytes).toBe(10);
    expect(await client.ok()).toBe(`fine ${TOKEN.length}`);
    const failed = await client.fail().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WebhookDeliveryError);
    expect((failed as Error).message).toBe("echoed [redacted]");
    expect(() => client.throws()).toThrow("plain [redacted]");
  });
});
