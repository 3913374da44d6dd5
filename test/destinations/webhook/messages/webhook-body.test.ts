import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { webhookAlertBody } from "../../../../src/destinations/webhook/messages/webhook-alert.js";
import { webhookBodySchema } from "../../../../src/destinations/webhook/messages/webhook-body-schema.js";
import { webhookDigestBody } from "../../../../src/destinations/webhook/messages/webhook-digest.js";
import {
  REGENERATE_WEBHOOK_COMMAND,
  WEBHOOK_JSON_SCHEMA_PATH,
  webhookJsonSchemaText,
} from "../../../../src/destinations/webhook/messages/webhook-json-schema.js";
import { digestNews, newsSummary } from "../../../../src/render/digest-news.js";
import { counts } from "../../../alerts/alert-builders.js";
import { ALERT_NOW, alertInput } from "../../../render/alert-input.js";
import { checkoutReport } from "../../../render/report-fixture.js";

const KEY = "checkout.weekly.2026-11-09";

describe("the webhook body of a digest", () => {
  it("is version 1 of the documented schema, with the slot key", () => {
    const body = webhookDigestBody(checkoutReport(), KEY);
    expect(webhookBodySchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ version: 1, kind: "digest", key: KEY, digest: "weekly" });
    expect(body.period).toEqual({
      start: "2026-11-09",
      end: "2026-11-15",
      prior: { start: "2026-11-02", end: "2026-11-08" },
    });
  });

  it("carries the digest's news and the delta view's verdicts, not a re-derivation", () => {
    const report = checkoutReport();
    const body = webhookDigestBody(report, KEY);
    const news = digestNews(report);
    expect(body.news.summary).toBe(newsSummary(news));
    expect(body.news.lines.map((l) => l.kind)).toEqual(news.lines.map((l) => l.kind));
    expect(body.figures.flaky_rate).toEqual({
      current: report.total.current.flakyRate,
      prior: report.total.prior?.flakyRate,
      delta: { verdict: "worse", text: "+1.1 pp", change: expect.closeTo(1.1, 1) },
    });
    expect(body.figures.run_pass_rate.delta.verdict).toBe("noise");
  });

  it("lists every project, the unavailable ones with no figures, each with its dashboard", () => {
    const report = checkoutReport();
    const body = webhookDigestBody(report, KEY);
    expect(body.projects.map((p) => p.id).sort()).toEqual(
      report.projects.map((p) => p.projectId).sort(),
    );
    const gone = body.projects.find((p) => p.status === "unavailable");
    expect(gone).toMatchObject({
      figures: null,
      dashboard_url: expect.stringContaining(gone?.id ?? "?"),
    });
  });
});

describe("the webhook body of an alert", () => {
  it("has the alert's transitions in its own unit, and no figures or projects", () => {
    const body = webhookAlertBody(
      alertInput([
        { scope: "p1", name: "Web", current: counts(8, 5_000), prior: counts(1, 5_000), daily: [] },
      ]),
      ALERT_NOW,
    );
    expect(webhookBodySchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({ kind: "alert", figures: null, projects: [] });
    expect(body.alert).toMatchObject({ unit: "percent", state: "critical", warn_at: 3 });
    expect(body.alert.transitions[0]).toMatchObject({
      kind: "fired",
      scope: "p1",
      from: "new",
      to: "critical",
      value: expect.closeTo(8, 1),
    });
  });
});

describe(WEBHOOK_JSON_SCHEMA_PATH, () => {
  it("is what the zod schema generates today", () => {
    const committed = readFileSync(WEBHOOK_JSON_SCHEMA_PATH, "utf8");
    if (committed !== webhookJsonSchemaText()) {
      expect.fail(
        `${WEBHOOK_JSON_SCHEMA_PATH} is stale — regenerate it with: ${REGENERATE_WEBHOOK_COMMAND}`,
      );
    }
  });

  it("tells a digest, an alert and an incident by kind, and names their parts", () => {
    const schema = JSON.parse(webhookJsonSchemaText());
    const kinds = schema.oneOf.map(
      (s: { properties: { kind: { const: string } } }) => s.properties.kind.const,
    );
    expect(kinds).toEqual(["digest", "alert", "incident"]);
    expect(schema.oneOf[0].required).toEqual(
      expect.arrayContaining([
        "version",
        "kind",
        "key",
        "team",
        "period",
        "news",
        "figures",
        "projects",
      ]),
    );
    expect(schema.oneOf[1].required).toContain("alert");
    expect(schema.oneOf[2].required).toEqual(expect.arrayContaining(["key", "at", "incident"]));
    expect(Object.keys(schema.$defs)).toEqual(
      expect.arrayContaining(["Figures", "Project", "Transition"]),
    );
  });
});
