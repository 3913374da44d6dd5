import { ConfigError } from "../../errors.js";
import type { Secret } from "../../secret.js";

// SMTP_URL read apart from nodemailer, so a bad one stops start-up before any mail is sent and
// before nodemailer is loaded.

export interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  auth: { user: string; pass: string } | null;
  /** The password as written in the URL (percent-encoded), to scrub from messages too. */
  rawPassword: string;
}

/** Host, port, TLS mode and login from SMTP_URL; a bad URL is a config error that never shows the URL. */
export function parseSmtpUrl(smtpUrl: Secret): SmtpServer {
  const refuse = (problem: string) =>
    new ConfigError("SMTP_URL", [
      {
        path: "email.smtp_url",
        message: `${problem} — expected smtp://user:pass@host:587 or smtps://user:pass@host:465 (percent-encode @ : / in the password)`,
      },
    ]);
  let url: URL;
  try {
    url = new URL(smtpUrl.reveal());
  } catch {
    // The TypeError carries the input: never let it out.
    throw refuse("is not a URL");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
    throw refuse(`has the scheme "${url.protocol}"`);
  if (!url.hostname) throw refuse("names no host");
  const secure = url.protocol === "smtps:";
  let user: string;
  let pass: string;
  try {
    user = decodeURIComponent(url.username);
    pass = decodeURIComponent(url.password);
  } catch {
    throw refuse("has a malformed %-escape in the user or password");
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass } : null,
    rawPassword: url.password,
  };
}
