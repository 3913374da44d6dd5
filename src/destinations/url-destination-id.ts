import { createHash } from "node:crypto";
import type { Secret } from "../secret.js";

// A destination whose address is a secret (a Teams workflow's or a webhook's URL, a PagerDuty
// routing key) is named in the ledger, the logs and `history` without it: by the kind and a
// short digest of the secret. The same secret gives the same id on every run; another, another.

/**
 * `kind:` and the first `hexDigits` of the secret's SHA-256. Each kind keeps the length its ids
 * were first stored with: another length would leave the ledger's deliveries unmatched.
 */
export function hashedDestinationId(kind: string, secret: Secret, hexDigits: number): string {
  return `${kind}:${createHash("sha256").update(secret.reveal()).digest("hex").slice(0, hexDigits)}`;
}

/** `msteams:3fa9c1d2e0b4`, `webhook:…`: the kind and 12 hex digits of the URL's SHA-256. */
export function urlDestinationId(kind: string, url: Secret): string {
  return hashedDestinationId(kind, url, 12);
}
