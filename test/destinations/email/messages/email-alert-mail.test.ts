import { describe, expect, it } from "vitest";
import type { ScopeWindow } from "../../../../src/alerts/types.js";
import { renderAlertEmail } from "../../../../src/destinations/email/messages/email-alert.js";
import { alertMailWithCharts } from "../../../../src/destinations/email/messages/email-alert-mail.js";
import type { Chart } from "../../../../src/render/charts/trend-chart.js";
import { counts } from "../../../alerts/alert-builders.js";
import { ALERT_NOW, alertInput } from "../../../render/alert-input.js";

// A fire's first mail as sent: its charts, drawn at send time, go where the recorded mail keeps
// room for them (under the transitions; before the footer in the text), inline as cid: parts.

const fired: ScopeWindow = {
  scope: "p1",
  name: "Web",
  current: counts(6, 5_000),
  prior: counts(1, 5_000),
  daily: [counts(1, 5_000), counts(1.2, 5_000), counts(6, 5_000)],
};
const chart = (name: string, alt: string): Chart => ({
  name,
  title: "Flaky rate",
  alt,
  png: Buffer.alloc(8, 1),
  width: 720,
  height: 360,
  cssWidth: 360,
  cssHeight: 180,
});
const mail = renderAlertEmail(alertInput([fired], { key: "k" }), ALERT_NOW);

describe("an alert's mail with its fire's charts", () => {
  it("shows each chart inline under the transitions, before the rule, as a cid: part", () => {
    const sent = alertMailWithCharts(mail, [chart("alert-p1-flaky-rate", "Flaky rate by day")]);
    const image = sent.html.indexOf('src="cid:alert-p1-flaky-rate@insights-reporter"');
    expect(image).toBeGreaterThan(sent.html.indexOf("Web</a>"));
    expect(image).toBeLessThan(sent.html.indexOf("95% Wilson interval"));
    expect(sent.attachments).toEqual([
      {
        filename: "alert-p1-flaky-rate.png",
        content: Buffer.alloc(8, 1),
        contentType: "image/png",
        cid: "alert-p1-flaky-rate@insights-reporter",
      },
    ]);
  });

  it("says each chart in the plain text, a paragraph of its own before the footer", () => {
    const sent = alertMailWithCharts(mail, [chart("a", "Flaky rate by day"), chart("b", "Prior")]);
    expect(sent.text).toContain(
      "\n\nChart:\n  Flaky rate by day\n  Prior\n\nSent by insights-reporter",
    );
    expect(sent.text.startsWith(mail.text.slice(0, mail.chartsAt.text))).toBe(true);
  });

  it("is the recorded mail as it is, without charts", () => {
    expect(alertMailWithCharts(mail, [])).toEqual({
      html: mail.html,
      text: mail.text,
      attachments: [],
    });
  });
});
