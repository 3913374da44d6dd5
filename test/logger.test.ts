import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { SECRET_LOG_PATHS } from "../src/config/secret-paths.js";
import { createLogger } from "../src/logger.js";
import { Secret } from "../src/secret.js";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return {
    logger: createLogger({ destination, pretty: false, secretPaths: SECRET_LOG_PATHS }),
    text: () => lines.join(""),
  };
}

describe("the logger", () => {
  it("shows a slot key: a field named key is not taken for a secret", () => {
    const { logger, text } = capture();
    logger.info({ key: "checkout.daily.2026-11-15" }, "digest done");
    expect(JSON.parse(text()).key).toBe("checkout.daily.2026-11-15");
  });

  it("never prints a Secret, wherever it sits", () => {
    const { logger, text } = capture();
    const secret = new Secret("xoxb-real-token-value");
    logger.info({ config: { slack: { token: secret } }, token: secret, list: [secret] }, "x");
    expect(text()).not.toContain("xoxb-real-token-value");
    expect(text()).toContain("[redacted]");
  });

  it("redacts the config's credentials and auth headers that slipped through as strings", () => {
    const { logger, text } = capture();
    logger.info(
      {
        config: { api: { key: "k-123456" }, slack: { token: "t-123456" } },
        email: { smtpUrl: "smtp://u:p-123456@h" },
        state: { url: "postgres://u:d-123456@h/db" },
        request: { headers: { authorization: "Bearer b-123456", "x-api-key": "x-123456" } },
      },
      "x",
    );
    for (const value of ["k-123456", "t-123456", "p-123456", "d-123456", "b-123456", "x-123456"]) {
      expect(text()).not.toContain(value);
    }
  });
});
