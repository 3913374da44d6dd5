import { describe, expect, it } from "vitest";
import { LookbackError } from "../../../src/errors.js";
import { createRequestCache } from "../../../src/insights/collect-insights.js";
import type { InsightsApi } from "../../../src/insights/types.js";
import { runDigest } from "../../../src/pipeline/digest/run-digest.js";
import { trendChartPainterInThisThread } from "../../../src/render/charts/trend-chart.js";
import { insights, mailedDigest } from "./mailed-digest.js";

// A digest with charts, run whole: the mail carries them; and when their days cannot be
// fetched, the digest still goes out, complete in words, and the log says why.

const run = (api: InsightsApi) =>
  mailedDigest({ runDigest, createRequestCache }, api, trendChartPainterInThisThread());

describe("a digest with charts", () => {
  it("mails the team's chart, both rates in one image, inline, referenced by its cid", async () => {
    const api: InsightsApi = {
      getInsights: async (id, q) => insights(id, q),
      listProjects: async () => [],
    };
    const { outcome, sent } = await run(api);
    expect(outcome.charts.map((c) => c.name)).toEqual(["team-rates"]);
    const [mail] = sent;
    const cids = (mail?.attachments ?? []).flatMap((a) => (a.cid ? [a.cid] : []));
    expect(cids).toHaveLength(1);
    for (const cid of cids) expect(mail?.html).toContain(`src="cid:${cid}"`);
  });

  it("asks for the chart window's days first, not once the report is built, and cuts the periods from them", async () => {
    // In a cycle of many digests the requests queue in the order asked: asked after the
    // report, every digest's chart days waited behind every other team's period. The window
    // holds the period and the prior one: one request a project, not two.
    const events: string[] = [];
    const api: InsightsApi = {
      async getInsights(id, q) {
        const which = q.startDate < "2026-10-01" ? "chart window" : "period";
        events.push(`asked ${which}`);
        await new Promise((resolve) => setImmediate(resolve));
        events.push(`answered ${which}`);
        return insights(id, q);
      },
      listProjects: async () => [],
    };
    const { outcome } = await run(api);
    expect(outcome.charts).toHaveLength(1);
    const firstAnswer = events.findIndex((e) => e.startsWith("answered"));
    expect(events.slice(0, firstAnswer)).toContain("asked chart window");
    expect(events).not.toContain("asked period");
  });

  it("goes out without them when the chart window's days cannot be fetched, and says why in the log", async () => {
    const api: InsightsApi = {
      async getInsights(id, q) {
        // 56 days back from the period's end: only the chart window asks so far back.
        if (q.startDate < "2026-10-01") throw new Error("socket hang up");
        return insights(id, q);
      },
      listProjects: async () => [],
    };
    const { outcome, sent, logs } = await run(api);
    expect(outcome.charts).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.attachments).toEqual([]);
    expect(sent[0]?.text).not.toContain("Trends");
    expect(logs).toContain("charts left out of the digest");
    expect(logs).toContain("socket hang up");
  });
});

describe("a digest whose chart window reaches past what the API serves", () => {
  it("draws the days the API still serves instead of an empty chart", async () => {
    const asked: string[] = [];
    const api: InsightsApi = {
      async getInsights(id, q) {
        asked.push(q.startDate);
        // The API serves from Oct 5 on: the chart window (56 days back) asks for more.
        if (q.startDate < "2026-10-05") throw new LookbackError("2026-10-05");
        return insights(id, q);
      },
      listProjects: async () => [],
    };
    const { outcome, logs } = await run(api);
    expect(outcome.charts.map((c) => c.name)).toEqual(["team-rates"]);
    expect(asked).toContain("2026-10-05");
    expect(logs).not.toContain("charts left out of the digest");
  });

  it("goes out without charts, saying so, when no day of the window can be had", async () => {
    const api: InsightsApi = {
      async getInsights(id, q) {
        if (q.startDate < "2026-10-01") throw new LookbackError("2026-12-01");
        return insights(id, q);
      },
      listProjects: async () => [],
    };
    const { outcome, logs } = await run(api);
    expect(outcome.charts).toEqual([]);
    expect(logs).toContain("charts left out of the digest");
  });
});
