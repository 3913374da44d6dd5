import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  signedWebhookHeaders,
  verifyWebhookSignature,
  webhookSignature,
} from "../../../src/destinations/webhook/webhook-signature.js";
import { FAKE_WEBHOOK_SECRET, startFakeReceiver } from "../../fake-webhooks/fake-receiver.js";

const SECRET = "whsec-abc";
const BODY = '{"version":1,"kind":"digest","key":"k"}';
const NOW = 1_795_000_000;

describe("the webhook signature", () => {
  it("is v1= and the hex HMAC-SHA256 of `<timestamp>.<raw body>`", () => {
    // Independently: printf '%s' '1795000000.{"version":1,"kind":"digest","key":"k"}' | openssl dgst -sha256 -hmac whsec-abc
    expect(webhookSignature(SECRET, NOW, BODY)).toBe(
      "v1=22368dfa1338de73485c7f471dd6228ba95f9235d466cfa4db110776690145c3",
    );
  });

  it("verifies what it signed, and refuses a changed body, a wrong secret and an old timestamp", () => {
    const headers = signedWebhookHeaders({ secret: SECRET, rawBody: BODY, key: "k", now: NOW });
    const verify = (over: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({
        secret: SECRET,
        rawBody: BODY,
        timestamp: headers["X-Insights-Timestamp"],
        signature: headers["X-Insights-Signature"],
        now: NOW + 10,
        ...over,
      });
    expect(headers["Idempotency-Key"]).toBe("k");
    expect(verify({})).toEqual({ ok: true, timestamp: NOW });
    expect(verify({ rawBody: BODY.replace("digest", "alert") })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(verify({ secret: "other" })).toEqual({ ok: false, reason: "mismatch" });
    expect(verify({ now: NOW + 301 })).toEqual({ ok: false, reason: "stale" });
    expect(verify({ timestamp: undefined })).toEqual({ ok: false, reason: "missing" });
    expect(verify({ timestamp: "12ab" })).toEqual({ ok: false, reason: "malformed" });
    // While a secret is rotated, a header may carry a signature per secret.
    const both = `${webhookSignature("old", NOW, BODY)},${headers["X-Insights-Signature"]}`;
    expect(verify({ signature: both })).toEqual({ ok: true, timestamp: NOW });
  });
});

describe("the fake receiver", () => {
  it("takes a signed POST once per Idempotency-Key and refuses an unsigned one", async () => {
    const receiver = await startFakeReceiver();
    try {
      const post = (headers: Record<string, string>) =>
        fetch(receiver.url, { method: "POST", headers, body: BODY });
      const now = Math.floor(Date.now() / 1000);
      const signed = signedWebhookHeaders({
        secret: FAKE_WEBHOOK_SECRET,
        rawBody: BODY,
        key: "k",
        now,
      });
      expect((await post(signed)).status).toBe(200);
      expect(await (await post(signed)).json()).toEqual({ ok: true, repeat: true });
      expect((await post({ "Content-Type": "application/json" })).status).toBe(401);
      expect(receiver.keys).toEqual(["k", "k"]);
      expect(receiver.accepted.map((a) => a.key)).toEqual(["k"]);
      expect(receiver.refused.map((r) => r.reason)).toEqual(["missing"]);
    } finally {
      await receiver.close();
    }
  });
});

describe("the verification snippet of docs/configuration.md", () => {
  it("accepts what the reporter signs and refuses a changed body or an old timestamp", async () => {
    const page = readFileSync("docs/configuration.md", "utf8");
    const snippet = /<!-- verify-snippet -->\n```js\n([\s\S]*?)```/.exec(page)?.[1];
    expect(snippet).toContain("export function verifyInsightsWebhook");
    const dir = mkdtempSync(join(tmpdir(), "verify-snippet-"));
    const file = join(dir, "verify.mjs");
    writeFileSync(file, snippet ?? "");
    const { verifyInsightsWebhook } = await import(pathToFileURL(file).href);
    const signed = signedWebhookHeaders({ secret: SECRET, rawBody: BODY, key: "k", now: NOW });
    const headers = Object.fromEntries(
      Object.entries(signed).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(verifyInsightsWebhook(BODY, headers, SECRET, NOW + 5)).toBe(true);
    expect(verifyInsightsWebhook(`${BODY} `, headers, SECRET, NOW + 5)).toBe(false);
    expect(verifyInsightsWebhook(BODY, headers, "other", NOW + 5)).toBe(false);
    expect(verifyInsightsWebhook(BODY, headers, SECRET, NOW + 301)).toBe(false);
    rmSync(dir, { recursive: true });
  });
});
