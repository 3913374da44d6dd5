import { verifyWebhookSignature } from "../../src/destinations/webhook/webhook-signature.js";
import {
  type Answer,
  type FakeEndpoint,
  type ReceivedRequest,
  startFakeEndpoint,
} from "./fake-endpoint.js";

/**
 * A receiver of the signed webhook, as a careful user would write one, over real HTTP on
 * 127.0.0.1: it verifies the signature over the raw body with its own clock (401 when it does
 * not match or is stale), records every Idempotency-Key it sees, and takes a repeated key
 * without acting on it again (200, counted in `repeats`).
 */
export interface FakeReceiver extends Omit<FakeEndpoint, "origin"> {
  url: string;
  /** Bodies taken, first time per key, parsed. */
  accepted: { key: string; body: Record<string, unknown>; request: ReceivedRequest }[];
  /** Every Idempotency-Key received with a valid signature, in order, repeats included. */
  keys: string[];
  /** Requests refused for their signature, with why. */
  refused: { reason: string; request: ReceivedRequest }[];
}

export const FAKE_WEBHOOK_SECRET = "whsec-test-0123456789";

export async function startFakeReceiver(
  secret = FAKE_WEBHOOK_SECRET,
  clock: () => number = () => Date.now() / 1000,
): Promise<FakeReceiver> {
  const accepted: FakeReceiver["accepted"] = [];
  const keys: string[] = [];
  const refused: FakeReceiver["refused"] = [];
  const endpoint = await startFakeEndpoint((request): Answer => {
    if (request.method !== "POST") return { status: 405, headers: { Allow: "POST" } };
    const header = (name: string) => {
      const value = request.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    };
    const verdict = verifyWebhookSignature({
      secret,
      rawBody: request.body,
      timestamp: header("X-Insights-Timestamp"),
      signature: header("X-Insights-Signature"),
      now: clock(),
    });
    if (!verdict.ok) {
      refused.push({ reason: verdict.reason, request });
      return { status: 401, body: { error: `signature ${verdict.reason}` } };
    }
    const key = header("Idempotency-Key") ?? "";
    const repeat = keys.includes(key);
    keys.push(key);
    if (!repeat) accepted.push({ key, body: JSON.parse(request.body), request });
    return { status: 200, body: { ok: true, repeat } };
  });
  const { origin, ...rest } = endpoint;
  return { ...rest, url: `${origin}/hooks/insights`, accepted, keys, refused };
}
