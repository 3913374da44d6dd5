import { createServer, type Socket } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 (smtp-server) for email tests: it keeps every message it
 * accepts, parsed with mailparser, and can be told to refuse a recipient, to require a login,
 * to refuse connections, or to hold a message unanswered. Not a mock: nodemailer talks real
 * SMTP to it over TCP.
 */

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
  /** Whether the session was upgraded to TLS (STARTTLS). */
  secure: boolean;
  /** The login the session used, if any. */
  user: string | null;
}

/** A message held at the end of its DATA: received in full, neither kept nor answered yet. */
export interface HeldMail {
  /** Resolves once the message's data is in. */
  arrived: Promise<void>;
  /** Keeps the message and answers 250. */
  release(): void;
  /**
   * Forgets the message and answers 451 to whoever still listens: a transaction the server never
   * acknowledged (its client died waiting, say) is not delivered.
   */
  drop(): void;
}

export interface TestSmtpServer {
  port: number;
  /** `smtp://[user:pass@]127.0.0.1:port`, with user and password URL-encoded. */
  url(login?: { user: string; pass: string }, scheme?: "smtp" | "smtps"): string;
  messages: ReceivedMail[];
  /** RCPT TO this address is answered 550. */
  refuseRecipient(address: string): void;
  /** Mail is accepted only after AUTH with exactly these credentials. */
  requireAuth(user: string, pass: string): void;
  /** Every new connection is greeted with a refusal (554). */
  refuseConnections(): void;
  /** Holds the next message (the next one to `to`, when given); closing the server drops it. */
  holdNext(to?: string): HeldMail;
  close(): Promise<void>;
}

export interface SmtpServerOptions {
  /** Offer STARTTLS (with smtp-server's built-in test certificate). Off by default. */
  starttls?: boolean;
  /** The AUTH mechanisms offered, in order (smtp-server's default: PLAIN, LOGIN). */
  authMethods?: string[];
  /**
   * A hostile server: every login is refused (535) with a message that echoes what the
   * client sent from its AUTH command on, credentials included.
   */
  echoAuth?: boolean;
}

/** Starts a server on a free loopback port. */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const refused = new Set<string>();
  let login: { user: string; pass: string } | null = null;
  let refusing = false;
  // Per client port: the lines it sent from its AUTH command on, as received.
  const authLines = new Map<number, string[]>();
  const holds: Array<{ to: string | null; arrived: () => void; keep: Promise<boolean> }> = [];
  const unsettled = new Set<(keep: boolean) => void>();
  const heldFor = (rcptTo: readonly string[]) => {
    const index = holds.findIndex((h) => h.to === null || rcptTo.includes(h.to));
    return index < 0 ? undefined : holds.splice(index, 1)[0];
  };

  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: options.starttls ? [] : ["STARTTLS"],
    ...(options.authMethods ? { authMethods: options.authMethods } : {}),
    onConnect(_session, callback) {
      callback(
        refusing ? Object.assign(new Error("not accepting mail now"), { responseCode: 554 }) : null,
      );
    },
    onAuth(auth, session, callback) {
      if (options.echoAuth) {
        const sent = authLines.get(session.remotePort) ?? [];
        callback(
          Object.assign(new Error(`Authentication failed for ${sent.join(" ")}`), {
            responseCode: 535,
          }),
        );
        return;
      }
      if (login && (auth.username !== login.user || auth.password !== login.pass)) {
        callback(
          Object.assign(new Error("Authentication credentials invalid"), { responseCode: 535 }),
        );
        return;
      }
      callback(null, { user: auth.username ?? "" });
    },
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        callback(
          Object.assign(new Error(`No such user here: ${address.address}`), { responseCode: 550 }),
        );
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks);
        const hold = heldFor(session.envelope.rcptTo.map((r) => r.address.toLowerCase()));
        if (hold) {
          hold.arrived();
          if (!(await hold.keep)) {
            callback(Object.assign(new Error("message dropped"), { responseCode: 451 }));
            return;
          }
        }
        // Stored before the 250 reply, so a resolved sendMail means the message is here.
        simpleParser(raw).then(
          (parsed) => {
            messages.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw,
              parsed,
              secure: session.secure,
              user: typeof session.user === "string" && session.user ? session.user : null,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });

  if (options.echoAuth) {
    server.server.on("connection", (socket: Socket) => {
      const port = socket.remotePort ?? 0;
      socket.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString("utf8").split("\r\n").filter(Boolean)) {
          const sent = authLines.get(port);
          if (sent) sent.push(line);
          else if (/^AUTH /i.test(line)) authLines.set(port, [line]);
        }
      });
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  if (address === null || typeof address === "string") throw new Error("smtp server has no port");
  const port = address.port;

  return {
    port,
    url(credentials, scheme = "smtp") {
      const auth = credentials
        ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@`
        : "";
      return `${scheme}://${auth}127.0.0.1:${port}`;
    },
    messages,
    refuseRecipient(addr) {
      refused.add(addr.toLowerCase());
    },
    requireAuth(user, pass) {
      login = { user, pass };
      server.options.authOptional = false;
    },
    refuseConnections() {
      refusing = true;
    },
    holdNext(to) {
      let arrived!: () => void;
      let settle!: (keep: boolean) => void;
      const arrivedPromise = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const keep = new Promise<boolean>((resolve) => {
        settle = resolve;
      });
      holds.push({ to: to?.toLowerCase() ?? null, arrived, keep });
      unsettled.add(settle);
      const finish = (kept: boolean) => {
        unsettled.delete(settle);
        settle(kept);
      };
      return { arrived: arrivedPromise, release: () => finish(true), drop: () => finish(false) };
    },
    close() {
      for (const settle of unsettled) settle(false);
      unsettled.clear();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port with nothing listening on it: connecting is refused. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
