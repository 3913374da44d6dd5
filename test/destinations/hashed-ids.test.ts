import { describe, expect, it } from "vitest";
import { pagerdutyDestinationId } from "../../src/destinations/pagerduty/pagerduty-config.js";
import { urlDestinationId } from "../../src/destinations/url-destination-id.js";
import { Secret } from "../../src/secret.js";

// The ids of destinations named by a secret, as the ledger stores them: a changed digest would
// leave every delivery already recorded unmatched (sent again, or its thread lost).

describe("a destination named by a digest of its secret", () => {
  it("is the kind and 12 hex digits of a URL's SHA-256 (Teams, webhooks)", () => {
    const teams = new Secret("https://example.webhook.office.com/workflows/abc");
    expect(urlDestinationId("msteams", teams)).toBe("msteams:782a3042d3ab");
    const hook = new Secret("https://receiver.example/hook");
    expect(urlDestinationId("webhook", hook)).toBe("webhook:f2407f86dd9d");
  });

  it("is pagerduty and 6 hex digits of the routing key's SHA-256", () => {
    const key = new Secret("R0UT1NGKEY0123456789abcdef012345");
    expect(pagerdutyDestinationId(key)).toBe("pagerduty:2e8150");
  });
});
