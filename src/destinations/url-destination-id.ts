import { createHash } from "node:crypto";
import type { Secret } from "../secret.js";

// A URL destination (a Teams workflow, a signed webhook) is named in the ledger, the logs and
// `history` without its URL, which carries a token: by the kind and a short digest of the URL.
// The same URL gives the same id on every run; another URL, another id.

/** `msteams:3fa9c1d2e0b4`, `webhook:…`: the kind and 12 hex digits of the URL's SHA-256. */
export function urlDestinationId(kind: string, url: Secret): string {
  return `${kind}:${createHash("sha256").update(url.reveal()).digest("hex").slice(0, 12)}`;
}
