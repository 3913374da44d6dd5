import net from "node:net";
import { Duplex } from "node:stream";

// nodemailer keeps an SMTP reply in memory until its last line ends, so a server that never
// ends one (an endless `220-` greeting, a line with no CRLF) would be read until a timeout.
// We hand nodemailer the socket (its `getSocket` hook), through a stream that counts what the
// server sends and hangs up past a cap. Real replies are short: EHLO's list is the longest,
// some hundreds of bytes.
//
// nodemailer upgrades the connection to TLS itself (smtps://, STARTTLS) by wrapping the stream
// we hand it, so all bytes, ciphertext too, pass our count: replies are measured line by line
// while they are plain text, and every connection is held to a total that no session of one
// message comes near (TLS certificates and thousands of recipients' replies included).

/** The longest reply read: one line, or all lines of a multi-line (`250-`) reply. */
export const MAX_REPLY_BYTES = 64 * 1024;
/** All that one connection reads, TLS handshake included. */
export const MAX_CONNECTION_BYTES = 1024 * 1024;

/** The server sent more than we read of an SMTP reply, or of a connection. */
export class SmtpReplyTooLong extends Error {
  constructor(readonly limit: number) {
    super(
      limit === MAX_REPLY_BYTES
        ? `a reply longer than ${limit / 1024} KiB`
        : `more than ${limit / 1024} KiB on one connection`,
    );
    this.name = "SmtpReplyTooLong";
  }
}

/**
 * Counts the bytes of the reply being read, chunk by chunk: returns false once a reply passes
 * `limit` bytes. A reply ends with a line that is not `ddd-` (a continuation); its bytes are
 * then forgotten. On TLS ciphertext lines are random, so it measures nothing there and never
 * trips.
 */
export function replyMeter(limit = MAX_REPLY_BYTES): (chunk: Buffer) => boolean {
  let replyBytes = 0;
  let head = "";
  return (chunk) => {
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(10, start);
      const end = lf < 0 ? chunk.length : lf + 1;
      if (head.length < 4) {
        head += chunk.subarray(start, Math.min(end, start + 4 - head.length)).toString("latin1");
      }
      replyBytes += end - start;
      if (replyBytes > limit) return false;
      if (lf >= 0) {
        if (!/^\d{3}-/.test(head)) replyBytes = 0;
        head = "";
      }
      start = end;
    }
    return true;
  };
}

/**
 * A socket as nodemailer uses one (data, end, close, timeout, setTimeout, addresses), over a
 * real TCP socket whose every chunk it counts first. Past a cap it destroys both with a
 * `SmtpReplyTooLong`, which nodemailer reports as the send's error.
 */
class CountedSocket extends Duplex {
  readonly #raw: net.Socket;
  #ended = false;

  constructor(raw: net.Socket) {
    super();
    this.#raw = raw;
    const reply = replyMeter();
    let total = 0;
    raw.on("data", (chunk: Buffer) => {
      total += chunk.length;
      const limit = !reply(chunk)
        ? MAX_REPLY_BYTES
        : total > MAX_CONNECTION_BYTES
          ? MAX_CONNECTION_BYTES
          : null;
      if (limit !== null) {
        this.destroy(new SmtpReplyTooLong(limit));
        return;
      }
      if (!this.push(chunk)) raw.pause();
    });
    raw.on("end", () => {
      this.#ended = true;
      this.push(null);
    });
    raw.on("close", () => {
      if (!this.#ended && !this.destroyed) this.destroy();
    });
    raw.on("error", (error) => this.destroy(error));
    raw.on("timeout", () => this.emit("timeout"));
  }

  override _read(): void {
    this.#raw.resume();
  }
  override _write(chunk: Buffer, encoding: BufferEncoding, done: (e?: Error | null) => void) {
    this.#raw.write(chunk, encoding, done);
  }
  override _final(done: (e?: Error | null) => void): void {
    this.#raw.end(() => done());
  }
  override _destroy(error: Error | null, done: (e?: Error | null) => void): void {
    this.#raw.destroy();
    done(error);
  }

  setTimeout(ms: number): this {
    this.#raw.setTimeout(ms);
    return this;
  }
  setKeepAlive(enable?: boolean, delay?: number): this {
    this.#raw.setKeepAlive(enable, delay);
    return this;
  }
  get remoteAddress() {
    return this.#raw.remoteAddress;
  }
  get remotePort() {
    return this.#raw.remotePort;
  }
  get localAddress() {
    return this.#raw.localAddress;
  }
  get localPort() {
    return this.#raw.localPort;
  }
}

/**
 * nodemailer's `getSocket` for `host:port`: each connection is a TCP socket behind a
 * `CountedSocket`. nodemailer still does the TLS (from the start for smtps://, or STARTTLS)
 * over it, with the transport's `tls` options.
 */
export function countedSocket(host: string, port: number) {
  return (
    _options: unknown,
    callback: (error: Error | null, socketOptions: { connection: Duplex }) => void,
  ): void => {
    callback(null, { connection: new CountedSocket(net.connect({ host, port })) });
  };
}
