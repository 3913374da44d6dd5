import { bodyExcerpt } from "../../deliver/http-post.js";
import { EmailDeliveryError } from "../../errors.js";
import { redactSecrets } from "../../secret.js";
import { SmtpReplyTooLong } from "./smtp-reply-cap.js";

// nodemailer's errors as `EmailDeliveryError`s that say what went wrong and what to fix. Only
// chosen fields are kept (code, command, SMTP status): never the original error, whose
// connection options hold the password, and any text from the server is scrubbed of it.

interface SmtpFailure {
  code?: unknown;
  command?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
  errno?: unknown;
  syscall?: unknown;
  reason?: unknown;
  library?: unknown;
  rejected?: unknown;
}

export interface SmtpErrorContext {
  /** `host:port`, for the message. */
  endpoint: string;
  /** Values that must never appear in the message: see `loginSecrets`. */
  secrets: readonly string[];
}

/** The error to throw for a failed send. */
export function smtpError(error: unknown, where: SmtpErrorContext): EmailDeliveryError {
  const failure: SmtpFailure =
    typeof error === "object" && error !== null ? error : { message: String(error) };
  const code = typeof failure.code === "string" ? failure.code : undefined;
  const command = typeof failure.command === "string" ? failure.command : undefined;
  const responseCode = typeof failure.responseCode === "number" ? failure.responseCode : undefined;
  // OpenSSL's message is a line of internals; its `reason` says what failed in words.
  const reason = typeof failure.reason === "string" ? failure.reason : undefined;
  // Scrubbed before it is cut short: a cut through an echoed secret would leave a piece of it.
  // Then without control characters and cut short, as a webhook's answer is quoted.
  const said = bodyExcerpt(
    redactSecrets(
      String(reason ?? failure.response ?? failure.message ?? "unknown error"),
      where.secrets,
    ),
    where.secrets,
  );
  const context = {
    endpoint: where.endpoint,
    smtpCode: code ?? null,
    command: command ?? null,
    responseCode: responseCode ?? null,
  };
  const { endpoint } = where;
  // A refusal that no retry mends (the login, an address, the size) unless the server says
  // it is temporary (4xx, e.g. 454 "temporary authentication failure").
  const permanent = { retry: responseCode !== undefined && responseCode < 500 };

  if (error instanceof SmtpReplyTooLong) {
    return new EmailDeliveryError(
      `the SMTP server ${endpoint} sent ${error.message} and was cut off (real replies are a few hundred bytes) — check SMTP_URL: it may point at something other than a mail server`,
      context,
    );
  }
  if (code === "EAUTH") {
    return new EmailDeliveryError(
      `the SMTP server ${endpoint} refused the login (${said}) — check the user and password in SMTP_URL`,
      context,
      permanent,
    );
  }
  if (code === "EENVELOPE" && Array.isArray(failure.rejected) && failure.rejected.length > 0) {
    const rejected = failure.rejected.map(String).join(", ");
    return new EmailDeliveryError(
      `the SMTP server ${endpoint} refused every recipient (${rejected}): ${said} — check the addresses in the digest's email.to`,
      { ...context, rejected: failure.rejected.map(String) },
      permanent,
    );
  }
  if (code === "EENVELOPE" && command === "MAIL FROM") {
    return new EmailDeliveryError(
      `the SMTP server ${endpoint} refused the sender address (${said}) — check email.from: many servers accept only their own domain or the login's address`,
      context,
      permanent,
    );
  }
  if (isTlsFailure(failure, code)) {
    return new EmailDeliveryError(
      `TLS with the SMTP server ${endpoint} failed (${said}) — use smtps:// for port 465 and smtp:// (STARTTLS) for 587 in SMTP_URL, and check the server's certificate`,
      context,
    );
  }
  if (
    /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ECONNRESET/.test(String(failure.message)) ||
    code === "ECONNECTION"
  ) {
    return new EmailDeliveryError(
      `cannot reach the SMTP server ${endpoint} (${said}) — check SMTP_URL`,
      context,
    );
  }
  // nodemailer's own look-up says EDNS; the socket we hand it (smtp-reply-cap.ts) says getaddrinfo's code.
  if (
    code === "EDNS" ||
    /\b(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)\b/.test(String(failure.message))
  ) {
    return new EmailDeliveryError(
      `cannot resolve the SMTP server host in ${endpoint} (${said}) — check SMTP_URL`,
      context,
    );
  }
  if (code === "ETIMEDOUT") {
    return new EmailDeliveryError(
      `the SMTP server ${endpoint} did not answer in time — check SMTP_URL, and that this host may connect to that port`,
      context,
    );
  }
  if (command === "CONN" && responseCode !== undefined && responseCode >= 400) {
    return new EmailDeliveryError(
      `the SMTP server ${endpoint} turned the connection away (${said}) — check SMTP_URL, and that the server accepts mail from this host`,
      context,
    );
  }
  if (responseCode === 552 || responseCode === 523) {
    return new EmailDeliveryError(
      `the SMTP server ${endpoint} refused the message as too large (${said}) — lower email.max_bytes below the server's limit`,
      context,
      permanent,
    );
  }
  return new EmailDeliveryError(`sending mail through ${endpoint} failed: ${said}`, context);
}

function isTlsFailure(failure: SmtpFailure, code: string | undefined): boolean {
  if (code === "ETLS") return true;
  if (code !== "ESOCKET") return false;
  if (failure.library !== undefined || failure.reason !== undefined) return true;
  return /certificate|self[- ]signed|ssl|tls|handshake|wrong version/i.test(
    String(failure.message),
  );
}

/**
 * Every form in which the login may travel, and so come back in a server's text: the
 * password as written in SMTP_URL and decoded, and the base64 the client sends — AUTH PLAIN
 * `\0user\0pass` (with or without an authorization identity) and AUTH LOGIN's user and
 * password lines. A hostile or careless server may echo any of them.
 */
export function loginSecrets(user: string, pass: string, passInUrl: string): string[] {
  const sent = [`\0${user}\0${pass}`, `${user}\0${pass}`, `${user}\0${user}\0${pass}`, pass, user];
  const base64 = sent.map((text) => Buffer.from(text, "utf8").toString("base64"));
  // Also without padding, for servers that drop it (redactSecrets replaces the longest form first).
  return [pass, passInUrl, ...base64, ...base64.map((text) => text.replace(/=+$/, ""))];
}
