import { createHmac, timingSafeEqual } from "node:crypto";

// How a webhook request is signed, the way Slack and Stripe sign theirs: an HMAC-SHA256 with
// the shared secret over "<timestamp>.<raw body>", so a receiver can refuse a forged body (no
// secret) and a replayed one (an old timestamp). The slot key rides along as Idempotency-Key,
// so a receiver can drop the one resend a crash between send and record may cause (ADR 0005).
// Pure: the caller passes the clock.

export const WEBHOOK_HEADERS = {
  timestamp: "X-Insights-Timestamp",
  signature: "X-Insights-Signature",
  idempotencyKey: "Idempotency-Key",
} as const;

/** How old a signed request may be before a receiver should refuse it as a replay. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. */
export function webhookSignature(secret: string, timestamp: number, rawBody: string): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`, "utf8");
  return `v1=${mac.digest("hex")}`;
}

/** What one request's headers are signed from, in either format. */
interface SigningInput {
  secret: string;
  rawBody: string;
  /** The slot key: the idempotency key (or the webhook-id), the same on every attempt. */
  key: string;
  /** Unix seconds, from the caller's clock. */
  now: number;
}

/** The headers of one signed request: its timestamp, signature and idempotency key. */
export function signedWebhookHeaders(input: SigningInput): Record<string, string> {
  const timestamp = Math.floor(input.now);
  return {
    "Content-Type": "application/json",
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: webhookSignature(input.secret, timestamp, input.rawBody),
    [WEBHOOK_HEADERS.idempotencyKey]: input.key,
  };
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: "missing" | "malformed" | "stale" | "mismatch" };

/**
 * What a receiver runs before it reads a body: the signature must match the raw body as
 * received (not re-serialised JSON) and the timestamp be within `toleranceSeconds` of its own
 * clock. A header may carry several `v1=` values, comma-separated, while a secret is rotated.
 */
export function verifyWebhookSignature(input: {
  secret: string;
  rawBody: string;
  timestamp: string | undefined;
  signature: string | undefined;
  /** The receiver's clock, unix seconds. */
  now: number;
  toleranceSeconds?: number;
}): VerifyResult {
  const { timestamp, signature } = input;
  if (!timestamp || !signature) return { ok: false, reason: "missing" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "malformed" };
  const seconds = Number(timestamp);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(input.now - seconds) > tolerance) return { ok: false, reason: "stale" };
  const expected = Buffer.from(webhookSignature(input.secret, seconds, input.rawBody));
  const matches = signature
    .split(",")
    .map((part) => Buffer.from(part.trim()))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  return matches ? { ok: true, timestamp: seconds } : { ok: false, reason: "mismatch" };
}

/**
 * The headers of one request signed as the Standard Webhooks specification says
 * (standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * "<webhook-id>.<webhook-timestamp>.<raw body>", keyed with the base64 key after `whsec_`. The
 * slot key is the webhook-id, the same on every attempt, so a receiver drops a resend by it.
 * `secret` is `whsec_<base64>`, as the config checked it.
 */
export function standardWebhookHeaders(input: SigningInput): Record<string, string> {
  const timestamp = Math.floor(input.now);
  const key = Buffer.from(input.secret.replace(/^whsec_/, ""), "base64");
  const mac = createHmac("sha256", key).update(
    `${input.key}.${timestamp}.${input.rawBody}`,
    "utf8",
  );
  return {
    "Content-Type": "application/json",
    "webhook-id": input.key,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1,${mac.digest("base64")}`,
  };
}
