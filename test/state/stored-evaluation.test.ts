import { describe, expect, it } from "vitest";
import type { AlertNotification } from "../../src/messages.js";
import { decodeNotification, encodeNotification } from "../../src/state/stored-evaluation.js";

// What the ledger keeps of an alert's notification is what a retry sends: a field the stored
// format leaves out is lost on every retry, silently.

describe("an alert's stored notification", () => {
  it("keeps the mail's Cc and where its fire's charts go, so a retried mail is the same mail", () => {
    const notification: AlertNotification = {
      slack: null,
      email: {
        to: ["oncall@example.com"],
        cc: ["owner@example.com"],
        subject: "[Checkout squad] flaky-rate fired",
        html: "<p>fired</p>",
        text: "fired\n-- key",
        threadKey: null,
        chartsAt: { html: 12, text: 5 },
      },
      msteams: null,
      webhook: null,
      pagerduty: null,
    };
    const stored = encodeNotification(notification);
    expect(decodeNotification(stored, "checkout.alert.flaky-rate.2026-11-20")).toEqual(
      notification,
    );
  });
});
