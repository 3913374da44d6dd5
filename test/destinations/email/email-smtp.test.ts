import { Writable } from "node:stream";
import { inspect } from "node:util";
import { simpleParser } from "mailparser";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { composeEml } from "../../../src/destinations/email/email-eml.js";
import { messageIdForKey } from "../../../src/destinations/email/email-message-id.js";
import {
  createSmtpDestination,
  type SmtpDestinationOptions,
} from "../../../src/destinations/email/email-smtp.js";
import { renderDigestEmail } from "../../../src/destinations/email/messages/email-digest.js";
import { fitEmailToSize } from "../../../src/destinations/email/messages/fit-email-to-size.js";
import { ConfigError, EmailDeliveryError } from "../../../src/errors.js";
import type { EmailMessage } from "../../../src/messages.js";
import { renderWorkbook, XLSX_CONTENT_TYPE } from "../../../src/render/workbook/workbook.js";
import { exportCommandLine, workbookFileName } from "../../../src/render/workbook/workbook-name.js";
import type { AvailableProject } from "../../../src/report/types.js";
import { Secret } from "../../../src/secret.js";
import { sampleReport } from "../../render/workbook-fixture.js";
import { loadWorkbook, records, sheet, value } from "../../render/workbook-read.js";
import { closedPort, startSmtpServer, type TestSmtpServer } from "../../smtp/start-smtp-server.js";

const FROM = "Test insights <insights@example.com>";
const KEY = "checkout.weekly.2026-11-09";
const PASSWORD = "s3cr3t-P@ss/wörd:%";
const report = sampleReport();

let server: TestSmtpServer;
let logs: string[];
const destinations: { close(): void }[] = [];

beforeEach(async () => {
  server = await startSmtpServer();
  logs = [];
});
afterEach(async () => {
  for (const d of destinations.splice(0)) d.close();
  await server.close();
});

function logger() {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  return pino({ level: "info" }, sink);
}

function destination(url: string, overrides: Partial<SmtpDestinationOptions> = {}) {
  const d = createSmtpDestination({
    smtpUrl: new Secret(url),
    from: FROM,
    maxBytes: 10_000_000,
    transportOptions: { ignoreTLS: true, secure: false },
    logger: logger(),
    ...overrides,
  });
  destinations.push(d);
  return d;
}

async function digestMessage(to: string[], attach = true): Promise<EmailMessage> {
  const rendered = renderDigestEmail(report, { key: KEY });
  const workbook = await renderWorkbook(report);
  return {
    ...rendered,
    to,
    messageId: messageIdForKey(KEY),
    attachments: attach
      ? [
          {
            filename: workbookFileName(report.team.name, report.periods.current),
            content: workbook,
            contentType: XLSX_CONTENT_TYPE,
          },
        ]
      : [],
  };
}

/** The error, and every way it can be printed, must not hold the password. */
function expectNoPassword(error: unknown): void {
  const views = [
    String(error),
    (error as Error).stack ?? "",
    JSON.stringify(error),
    inspect(error, { depth: 10, showHidden: true }),
    JSON.stringify((error as EmailDeliveryError).context ?? {}),
  ];
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD)]) {
    for (const view of views) expect(view).not.toContain(secret);
  }
}

async function sendError(promise: Promise<unknown>): Promise<EmailDeliveryError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EmailDeliveryError);
  expectNoPassword(error);
  return error as EmailDeliveryError;
}

describe("createSmtpDestination", () => {
  it("delivers one digest with its subject, bodies, Message-ID and the workbook", async () => {
    const message = await digestMessage(["qa-leads@example.com", "lead@example.com"]);
    const sent = await destination(server.url()).send(message);

    expect(sent).toEqual({
      messageId: "<checkout.weekly.2026-11-09@insights-reporter>",
      accepted: ["qa-leads@example.com", "lead@example.com"],
      rejected: [],
    });
    expect(server.messages).toHaveLength(1);
    const mail = server.messages[0];
    if (!mail) return;
    expect(mail.envelope).toEqual({
      from: "insights@example.com",
      to: ["qa-leads@example.com", "lead@example.com"],
    });
    expect(mail.parsed.subject).toBe(
      "[Checkout squad] weekly test insights · Nov 9 – 15, 2026 · Web E2E flaky-rate 5.2% — above critical 5%",
    );
    expect(mail.parsed.messageId).toBe("<checkout.weekly.2026-11-09@insights-reporter>");
    expect(mail.parsed.headers.get("auto-submitted")).toBe("auto-generated");
    expect(mail.parsed.html).toBe(message.html);
    expect(mail.parsed.text?.trim()).toBe(message.text.trim());

    expect(mail.parsed.attachments).toHaveLength(1);
    const attachment = mail.parsed.attachments[0];
    expect(attachment?.filename).toBe("insights-checkout-2026-11-09_2026-11-15.xlsx");
    expect(attachment?.contentType).toBe(XLSX_CONTENT_TYPE);
    const book = await loadWorkbook(attachment?.content as Buffer);
    // Runs has the project ids; Summary the same rows in the same order.
    const ids = records(sheet(book, "Runs")).map((r) => value(r, "Project ID"));
    const rows = records(sheet(book, "Summary"));
    for (const project of report.projects.filter((p): p is AvailableProject => p.status === "ok")) {
      const row = rows[ids.indexOf(project.projectId)];
      expect(row && value(row, "Runs")).toBe(project.current.runs);
      expect(row && value(row, "Flaky rate")).toBe(project.current.flakyRate);
    }
  });

  it("upgrades to TLS with STARTTLS when the server offers it", async () => {
    const tlsServer = await startSmtpServer({ starttls: true });
    try {
      // smtp-server's built-in test certificate is self-signed (and expired): trust it here only.
      const d = destination(tlsServer.url(), {
        transportOptions: { tls: { rejectUnauthorized: false } },
      });
      await d.send(await digestMessage(["qa@example.com"], false));
      expect(tlsServer.messages.map((m) => m.secure)).toEqual([true]);
    } finally {
      await tlsServer.close();
    }
  });

  it("logs in with the user and password of SMTP_URL", async () => {
    server.requireAuth("bot@example.com", PASSWORD);
    await destination(server.url({ user: "bot@example.com", pass: PASSWORD })).send(
      await digestMessage(["qa@example.com"], false),
    );
    expect(server.messages.map((m) => m.user)).toEqual(["bot@example.com"]);
  });

  /** What the digest does with a mail: fit it under the destination's cap, then send it. */
  async function sendCapped(maxBytes: number, message: EmailMessage, hint: string | null) {
    const d = destination(server.url(), { maxBytes });
    const sized = await fitEmailToSize(message, {
      maxBytes: d.maxBytes,
      measure: (m) => d.measure(m),
      hint,
    });
    return { sized, sent: await d.send(sized.message) };
  }

  it("sends an oversize mail without the workbook and says how to export it", async () => {
    const message = await digestMessage(["qa@example.com"]);
    const withoutAttachment = (await composeEml({ ...message, attachments: [] }, FROM)).length;
    const command = exportCommandLine(report.team.name, report.periods.current);
    const { sized, sent } = await sendCapped(withoutAttachment + 2_000, message, command);

    expect(sent.accepted).toEqual(["qa@example.com"]);
    expect(sized.dropped.map((a) => a.filename)).toEqual([
      "insights-checkout-2026-11-09_2026-11-15.xlsx",
    ]);
    const mail = server.messages[0];
    expect(mail?.parsed.attachments).toEqual([]);
    expect(command).toBe(
      "insights-reporter export --team checkout --from 2026-11-09 --to 2026-11-15 --out insights-checkout-2026-11-09_2026-11-15.xlsx",
    );
    expect(mail?.parsed.text).toContain("insights-checkout-2026-11-09_2026-11-15.xlsx");
    expect(mail?.parsed.text).toContain("is not attached");
    expect(mail?.parsed.text).toContain("email.max_bytes");
    expect(mail?.parsed.text).toContain(command);
    expect(mail?.parsed.html).toContain(command);
  });

  it("says to ask for an export when there is no command to give", async () => {
    await sendCapped(10_000, await digestMessage(["qa@example.com"]), null);
    expect(server.messages[0]?.parsed.text).toContain("Ask the sender to export it");
  });

  it("keeps the workbook when the mail fits under the cap", async () => {
    const message = await digestMessage(["qa@example.com"]);
    const full = (await composeEml(message, FROM)).length;
    const { sized } = await sendCapped(full + 1_000, message, null);
    expect(sized.dropped).toEqual([]);
    expect(server.messages[0]?.parsed.attachments).toHaveLength(1);
  });

  it("still delivers to the other recipients when one is refused, and reports the refusal", async () => {
    server.refuseRecipient("gone@example.com");
    const sent = await destination(server.url()).send(
      await digestMessage(["qa@example.com", "gone@example.com"], false),
    );
    expect(sent.accepted).toEqual(["qa@example.com"]);
    expect(sent.rejected).toEqual(["gone@example.com"]);
    expect(server.messages.map((m) => m.envelope.to)).toEqual([["qa@example.com"]]);
    expect(logs.join("")).toContain("gone@example.com");
  });

  it("sends a message the test server holds only once the server answers; a dropped one is not delivered", async () => {
    const held = server.holdNext("qa@example.com");
    const sending = destination(server.url()).send(await digestMessage(["qa@example.com"], false));
    await held.arrived;
    expect(server.messages).toEqual([]);
    held.release();
    expect((await sending).messageId).toBe(messageIdForKey(KEY));
    expect(server.messages).toHaveLength(1);

    const dropped = server.holdNext();
    const refused = sendError(
      destination(server.url()).send(await digestMessage(["qa@example.com"], false)),
    );
    await dropped.arrived;
    dropped.drop();
    expect((await refused).message).toContain("451");
    expect(server.messages).toHaveLength(1);
  });

  it("fails when every recipient is refused, naming them", async () => {
    server.refuseRecipient("a@example.com");
    server.refuseRecipient("b@example.com");
    const error = await sendError(
      destination(server.url()).send(
        await digestMessage(["a@example.com", "b@example.com"], false),
      ),
    );
    expect(error.message).toContain("refused every recipient (a@example.com, b@example.com)");
    expect(error.message).toContain("email.to");
    expect(server.messages).toEqual([]);
  });

  it("says the login was refused, without the password", async () => {
    server.requireAuth("bot@example.com", "the-right-one");
    const error = await sendError(
      destination(server.url({ user: "bot@example.com", pass: PASSWORD })).send(
        await digestMessage(["qa@example.com"], false),
      ),
    );
    expect(error.message).toContain("refused the login");
    expect(error.message).toContain("check the user and password in SMTP_URL");
    expect(error.context.smtpCode).toBe("EAUTH");
  });

  it("says the server cannot be reached on a closed port", async () => {
    const port = await closedPort();
    const error = await sendError(
      destination(`smtp://bot:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`).send(
        await digestMessage(["qa@example.com"], false),
      ),
    );
    expect(error.message).toContain(`cannot reach the SMTP server 127.0.0.1:${port}`);
    expect(error.message).toContain("check SMTP_URL");
  });

  it("says the host cannot be resolved when SMTP_URL names no host", async () => {
    const error = await sendError(
      destination(`smtp://bot:${encodeURIComponent(PASSWORD)}@no-such-host.invalid:587`).send(
        await digestMessage(["qa@example.com"], false),
      ),
    );
    expect(error.message).toMatch(
      /^cannot resolve the SMTP server host in no-such-host\.invalid:587 \(.*(ENOTFOUND|EAI_AGAIN).*\) — check SMTP_URL/,
    );
  });

  it("reports a server that turns connections away", async () => {
    server.refuseConnections();
    const error = await sendError(
      destination(server.url({ user: "bot", pass: PASSWORD })).send(
        await digestMessage(["qa@example.com"], false),
      ),
    );
    expect(error.message).toContain(
      `the SMTP server 127.0.0.1:${server.port} turned the connection away`,
    );
    expect(error.message).toContain("554 not accepting mail now");
  });

  it("says TLS failed when smtps:// meets a plain server", async () => {
    const error = await sendError(
      destination(server.url({ user: "bot", pass: PASSWORD }, "smtps"), {
        transportOptions: {},
      }).send(await digestMessage(["qa@example.com"], false)),
    );
    expect(error.message).toMatch(
      /^TLS with the SMTP server 127\.0\.0\.1:\d+ failed \(wrong version number\)/,
    );
    expect(error.message).toContain("smtps:// for port 465");
  });

  it("says TLS failed when the server's certificate is not trusted", async () => {
    const tlsServer = await startSmtpServer({ starttls: true });
    try {
      const d = destination(tlsServer.url({ user: "bot", pass: PASSWORD }), {
        transportOptions: { requireTLS: true },
      });
      const error = await sendError(d.send(await digestMessage(["qa@example.com"], false)));
      expect(error.message).toContain("TLS with the SMTP server");
      expect(error.message).toContain("certificate");
      expect(tlsServer.messages).toEqual([]);
    } finally {
      await tlsServer.close();
    }
  });

  it.each([
    ["not a URL", `not a url ${PASSWORD}`],
    ["another scheme", `https://bot:${encodeURIComponent(PASSWORD)}@mail.example.com`],
    ["a malformed escape", `smtp://bot:${encodeURIComponent(PASSWORD)}%zz@mail.example.com`],
  ])("refuses %s as SMTP_URL without echoing it", (_case, url) => {
    const error = (() => {
      try {
        createSmtpDestination({ smtpUrl: new Secret(url), from: FROM, maxBytes: 10_000_000 });
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as Error).message).toContain("email.smtp_url");
    expectNoPassword(error);
  });
});

describe("composeEml", () => {
  it("writes the message as an .eml that parses back with its Message-ID, date and workbook", async () => {
    const message = await digestMessage(["qa@example.com"]);
    const eml = await composeEml(message, FROM, { date: new Date("2026-11-16T08:00:00Z") });
    const parsed = await simpleParser(eml);
    expect(parsed.messageId).toBe(message.messageId);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.date?.toISOString()).toBe("2026-11-16T08:00:00.000Z");
    expect(parsed.from?.text).toBe('"Test insights" <insights@example.com>');
    expect(parsed.attachments.map((a) => a.filename)).toEqual([
      "insights-checkout-2026-11-09_2026-11-15.xlsx",
    ]);
  });
});
