import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { smtpError } from "../../../src/destinations/email/email-errors.js";
import { createSmtpDestination } from "../../../src/destinations/email/email-smtp.js";
import { MAX_REPLY_BYTES, replyMeter } from "../../../src/destinations/email/smtp-reply-cap.js";
import { EmailDeliveryError } from "../../../src/errors.js";
import { Secret } from "../../../src/secret.js";

// A hostile SMTP server that never ends its reply: the client must stop reading it after a few
// KiB and hang up, rather than keep every byte in memory until a timeout.

/**
 * What the server streams before it gives up on its own: far more than the cap, and more than
 * the loopback's socket buffers take in before the client reads (some MiB, autotuned).
 */
const STREAM_LIMIT = 16 * 1024 * 1024;

interface EndlessServer {
  port: number;
  /** Resolves with the bytes the server got written before the client hung up (or it gave up). */
  written: Promise<{ bytes: number; clientHungUp: boolean }>;
  close(): Promise<void>;
}

/** Streams `piece` to the first client, respecting backpressure, until it hangs up. */
async function startEndlessServer(greeting: string, piece: string): Promise<EndlessServer> {
  let report: (value: { bytes: number; clientHungUp: boolean }) => void = () => {};
  const written = new Promise<{ bytes: number; clientHungUp: boolean }>((resolve) => {
    report = resolve;
  });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let bytes = 0;
    let done = false;
    const finish = (clientHungUp: boolean) => {
      if (done) return;
      done = true;
      report({ bytes, clientHungUp });
      socket.destroy();
    };
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    const chunk = Buffer.from(piece.repeat(Math.ceil(65_536 / piece.length)), "latin1");
    const pump = () => {
      while (!done) {
        if (bytes >= STREAM_LIMIT) return finish(false);
        bytes += chunk.length;
        if (!socket.write(chunk)) return;
      }
    };
    socket.on("drain", pump);
    bytes += Buffer.byteLength(greeting, "latin1");
    socket.write(greeting, "latin1");
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    written,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const servers: EndlessServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function sendTo(server: EndlessServer): Promise<unknown> {
  const destination = createSmtpDestination({
    smtpUrl: new Secret(`smtp://127.0.0.1:${server.port}`),
    from: "Test insights <insights@example.com>",
    maxBytes: 10_000_000,
    transportOptions: { ignoreTLS: true, secure: false },
  });
  try {
    return await destination
      .send({
        to: ["qa@example.com"],
        subject: "s",
        text: "t",
        html: "<p>t</p>",
        messageId: "<a@example.com>",
        attachments: [],
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
  } finally {
    destination.close();
  }
}

describe("an SMTP server whose reply never ends", () => {
  it.each([
    ["a multi-line 220- greeting that never reaches its last line", "220-", "220-more text\r\n"],
    ["a greeting line that never reaches its CRLF", "220 ", "x"],
  ])("is cut off after a few KiB of %s, with one clear line", async (_case, greeting, piece) => {
    const server = await startEndlessServer(greeting, piece);
    servers.push(server);
    const error = await sendTo(server);
    const { bytes, clientHungUp } = await server.written;

    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect((error as Error).message).toMatch(
      /^the SMTP server 127\.0\.0\.1:\d+ sent a reply longer than 64 KiB/,
    );
    expect((error as Error).message).toContain("check SMTP_URL");
    // The client hung up before the server ran out; what the server wrote past the cap sat in
    // socket buffers the client never read (replyMeter's table below pins the cap itself).
    expect(clientHungUp).toBe(true);
    expect(bytes).toBeLessThan(STREAM_LIMIT);
  });
});

describe("replyMeter", () => {
  const line = (head: string, length: number) =>
    `${head}${"x".repeat(length - head.length - 2)}\r\n`;
  it.each([
    ["a reply of exactly the cap", [line("250 ", MAX_REPLY_BYTES)], true],
    ["a line one byte past it", [line("250 ", MAX_REPLY_BYTES + 1)], false],
    ["a line with no end past it, in pieces", ["220 ", "x".repeat(MAX_REPLY_BYTES)], false],
    [
      "continuation lines that add up past it",
      [line("250-", 40_000), line("250-", 30_000), line("250 ", 10)],
      false,
    ],
    [
      "many replies each under it",
      [line("250-", 40_000), line("250 ", 20_000), line("250 ", 40_000), line("354 ", 40_000)],
      true,
    ],
  ])("reads %s: %s", (_case, chunks, fits) => {
    const fitsSoFar = replyMeter();
    expect(chunks.every((chunk) => fitsSoFar(Buffer.from(chunk, "latin1")))).toBe(fits);
  });
});

describe("smtpError", () => {
  it("quotes a server's text without control characters, cut to 200 characters", () => {
    const response = `554 \u001b[31mno\u0007 way\r\n${"y".repeat(500)}`;
    const error = smtpError(
      { code: "EENVELOPE", command: "DATA", responseCode: 554, response },
      { endpoint: "mail.example.com:587", secrets: [] },
    );
    const said = error.message.slice(error.message.indexOf(": ") + 2);
    expect(said).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    expect(said).toMatch(/^554 \[31mno way y+…$/);
    expect(said.length).toBe(200);
  });
});
