import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createRequestCache } from "../../../src/insights/collect-insights.js";
import type { InsightsApi, InsightsQuery, ProjectInsights } from "../../../src/insights/types.js";
import type { EmailMessage } from "../../../src/messages.js";
import { datesIn } from "../../../src/periods/calendar-date.js";
import { trendChartPainterInThisThread } from "../../../src/render/charts/trend-chart.js";
import { runDigest } from "../../../src/run-digest.js";
import { aDigest, aTeam } from "../../daemon/daemon-harness.js";

// A digest with charts, run whole: the mail carries them; and when their days cannot be
// fetched, the digest still goes out, complete in words, and the log says why.

function insights(projectId: string, query: InsightsQuery): ProjectInsights {
  const days = datesIn({ start: query.startDate, end: query.endDate }).map((date, i) => ({
    date,
    runs: { passed: 9, failed: 1, meanDurationMs: 60_000 },
    tests: { passed: 990, failed: 10, skipped: 0, flaky: 10 + (i % 5), timedOut: 0 },
  }));
  const zero = { passed: 0, failed: 0, meanDurationMs: null };
  return {
    projectId,
    startDate: query.startDate,
    endDate: query.endDate,
    timezone: query.timezone,
    days,
    overall: { runs: zero, tests: { passed: 0, failed: 0, skipped: 0, flaky: 0, timedOut: 0 } },
  };
}

async function run(api: InsightsApi) {
  const sent: EmailMessage[] = [];
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const digest = aDigest({
    period: "previous_week",
    charts: { windowDays: 56 },
    slack: null,
    email: { to: ["qa@example.com"], attachXlsx: false },
  });
  const outcome = await runDigest(
    { team: aTeam({ alerts: [] }), digest, fireAt: new Date("2026-11-16T08:00:00Z") },
    {
      api,
      slack: null,
      msteams: null,
      webhook: null,
      email: {
        maxBytes: 10_000_000,
        measure: async () => 1,
        send: async (message) => {
          sent.push(message);
          return { messageId: message.messageId, accepted: message.to, rejected: [] };
        },
      },
      ledger: null,
      cache: createRequestCache(),
      logger: pino({ level: "warn" }, sink),
      chartPainter: trendChartPainterInThisThread(),
    },
  );
  return { outcome, sent, logs };
}

describe("a digest with charts", () => {
  it("mails the team's two charts inline, each referenced by its cid", async () => {
    const api: InsightsApi = {
      getInsights: async (id, q) => insights(id, q),
      listProjects: async () => [],
    };
    const { outcome, sent } = await run(api);
    expect(outcome.charts.map((c) => c.name)).toEqual(["team-flaky-rate", "team-run-pass-rate"]);
    const [mail] = sent;
    const cids = (mail?.attachments ?? []).flatMap((a) => (a.cid ? [a.cid] : []));
    expect(cids).toHaveLength(2);
    for (const cid of cids) expect(mail?.html).toContain(`src="cid:${cid}"`);
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
    expect(logs.join("")).toContain("charts left out of the digest");
    expect(logs.join("")).toContain("socket hang up");
  });
});
