import { Writable } from "node:stream";
import { inspect } from "node:util";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loginSecrets, smtpError } from "../../../src/destinations/email/email-errors.js";
import { createSmtpDestination } from "../../../src/destinations/email/email-smtp.js";
import { EmailDeliveryError } from "../../../src/errors.js";
import { Secret } from "../../../src/secret.js";
import { startSmtpServer, type TestSmtpServer } from "../../smtp/start-smtp-server.js";

/**
 * A hostile SMTP server that echoes the client's AUTH lines in its refusal must not get the
 * credentials into the error, and so into the log or the ledger's last_error, in any
 * encoding the client sent them.
 */

const USER = "bot@example.com";
const PASSWORD = "s3cr3t-P@ss/wörd:%";
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** Every form of the credentials a client may have sent, or a URL may have carried. */
const FORMS = {
  "PLAIN \\0user\\0pass": b64(`\0${USER}\0${PASSWORD}`),
  "PLAIN user\\0pass": b64(`${USER}\0${PASSWORD}`),
  "LOGIN password": b64(PASSWORD),
  "LOGIN user": b64(USER),
  "PLAIN without padding": b64(`\0${USER}\0${PASSWORD}`).replace(/=+$/, ""),
  "raw password": PASSWORD,
  "URL-encoded password": encodeURIComponent(PASSWORD),
};

let server: TestSmtpServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function failedLogin(authMethods: string[]) {
  server = await startSmtpServer({ echoAuth: true, authMethods });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const logger = pino({ level: "debug" }, sink);
  const destination = createSmtpDestination({
    smtpUrl: new Secret(server.url({ user: USER, pass: PASSWORD })),
    from: "Test insights <insights@example.com>",
    maxBytes: 10_000_000,
    transportOptions: { ignoreTLS: true, secure: false },
    logger,
  });
  try {
    await destination.send({
      to: ["qa@example.com"],
      subject: "digest",
      text: "hello",
      html: "<p>hello</p>",
      messageId: "<echo@example.com>",
      attachments: [],
    });
  } catch (error) {
    // What a caller logs and records as last_error.
    logger.error({ err: error }, error instanceof Error ? error.message : String(error));
    return { error, logs };
  } finally {
    destination.close();
  }
  throw new Error("expected the login to be refused");
}

describe("a server that echoes the AUTH line", () => {
  it.each([["PLAIN"], ["LOGIN"]])(
    "gets no encoding of the credentials into the error or the log (AUTH %s)",
    async (method) => {
      const { error, logs } = await failedLogin([method]);
      expect(error).toBeInstanceOf(EmailDeliveryError);
      const message = (error as Error).message;
      // The echo did come back, scrubbed: the test is not passing on a quiet server.
      expect(message).toContain(`refused the login (535 Authentication failed for AUTH ${method}`);
      expect(message).toContain("[redacted]");
      const everything = [
        message,
        String(error),
        inspect(error, { depth: 10 }),
        JSON.stringify((error as EmailDeliveryError).context),
        ...logs,
      ].join("\n");
      for (const [form, text] of Object.entries(FORMS)) {
        expect(everything, `leaked: ${form}`).not.toContain(text);
      }
    },
  );
});

describe("smtpError", () => {
  it("scrubs a long reply before cutting it short, so no piece of an echo survives the cut", () => {
    const plain = FORMS["PLAIN \\0user\\0pass"];
    // The echo straddles the 200th character, where the quote is cut.
    const response = `535 ${"x".repeat(170)} AUTH PLAIN ${plain}`;
    const error = smtpError(
      { code: "EAUTH", command: "AUTH PLAIN", responseCode: 535, response },
      { endpoint: "mail.example.com:587", secrets: loginSecrets(USER, PASSWORD, "") },
    );
    expect(error.message).not.toContain(plain.slice(0, 12));
    expect(error.message).toContain("AUTH PLAIN [redacted]");
  });
});
