import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookSender } from "../../../src/destinations/webhook/webhook-sender.js";
import { Secret } from "../../../src/secret.js";
import { configText, issueLines, parse } from "../../config/config-builders.js";
import { type FakeEndpoint, startFakeEndpoint } from "../../fake-webhooks/fake-endpoint.js";

// `webhook: { url, secret, format: standard }` signs as the Standard Webhooks specification
// (standardwebhooks.com) says, so a receiver can verify with any of its libraries. The receiver
// here verifies with its own implementation, written from the specification alone (not from
// our signing code): HMAC-SHA256 keyed with the base64-decoded secret after `whsec_`, over
// `${webhook-id}.${webhook-timestamp}.${body}`, sent as `v1,<base64>` (space-separated when
// several), the timestamp within 5 minutes.

const SECRET = `whsec_${Buffer.from("a shared secret of 32 bytes!!!!!").toString("base64")}`;

/** A Standard Webhooks verifier, from the specification. */
function verifyStandard(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  nowSeconds: number,
): boolean {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = one("webhook-id");
  const timestamp = one("webhook-timestamp");
  const signatures = one("webhook-signature");
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

let receiver: FakeEndpoint;
const verdicts: { ok: boolean; id: string | undefined }[] = [];
beforeAll(async () => {
  receiver = await startFakeEndpoint((request) => {
    const ok = verifyStandard(SECRET, request.headers, request.body, Date.now() / 1000);
    verdicts.push({ ok, id: request.headers["webhook-id"] as string | undefined });
    return ok ? { status: 204 } : { status: 401, body: { error: "bad signature" } };
  });
});
afterAll(() => receiver?.close());

describe("a webhook with format: standard", () => {
  it("is signed so that a Standard Webhooks verifier accepts it, the slot key as webhook-id", async () => {
    const send = createWebhookSender({ timeoutMs: 5_000 });
    const body = JSON.stringify({ version: 1, kind: "alert", key: "design.alert.x.2026-11-18" });
    await send.send(
      {
        url: new Secret(`${receiver.origin}/hooks/std`),
        secret: new Secret(SECRET),
        destination: "webhook:0123456789ab",
        format: "standard",
      },
      "design.alert.x.2026-11-18",
      body,
    );
    expect(verdicts).toEqual([{ ok: true, id: "design.alert.x.2026-11-18" }]);
    const headers = receiver.requests[0]?.headers ?? {};
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    // The signature of the Insights form is not sent beside it.
    expect(headers["x-insights-signature"]).toBeUndefined();
  });

  it("is refused by the verifier under another secret", () => {
    const other = `whsec_${Buffer.from("another secret").toString("base64")}`;
    const request = receiver.requests[0];
    if (!request) throw new Error("no request");
    expect(verifyStandard(other, request.headers, request.body, Date.now() / 1000)).toBe(false);
    expect(verifyStandard(SECRET, request.headers, `${request.body} `, Date.now() / 1000)).toBe(
      false,
    );
  });

  it("takes only a whsec_ secret in the config, saying what one looks like", () => {
    const edits = (secret: string) => ({
      "teams[0].alerts[0].webhook": {
        url: "https://hooks.example.test/x",
        secret,
        format: "standard",
      },
    });
    const good = parse(configText(edits(SECRET)));
    if (!("config" in good)) throw new Error(issueLines(good).join("\n"));
    expect(good.config.teams[0]?.alerts[0]?.webhook?.format).toBe("standard");
    const bad = parse(configText(edits("not-a-whsec-secret")));
    expect("config" in bad).toBe(false);
    expect(issueLines(bad).join("\n")).toMatch(/whsec_/);
    expect(issueLines(bad).join("\n")).not.toContain("not-a-whsec-secret");
  });
});
