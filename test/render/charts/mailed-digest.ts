import { Writable } from "node:stream";
import { pino } from "pino";
import type { createRequestCache } from "../../../src/insights/collect-insights.js";
import type { InsightsApi, InsightsQuery, ProjectInsights } from "../../../src/insights/types.js";
import type { EmailMessage } from "../../../src/messages.js";
import { datesIn } from "../../../src/periods/calendar-date.js";
import type { runDigest } from "../../../src/pipeline/digest/run-digest.js";
import type { ChartPainter } from "../../../src/render/charts/draw-chart.js";
import { aDigest, aTeam } from "../../daemon/daemon-harness.js";

// A weekly digest with charts, mailed and run whole, for the tests that look at its charts:
// from the sources (unit) or from the built package (e2e, whose modules they pass in).

/** A project's days over the asked range: 1% failed, a flaky count that wobbles day by day. */
export function insights(projectId: string, query: InsightsQuery): ProjectInsights {
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

/** The modules the digest runs through: the sources' or the built package's. */
export interface DigestModules {
  runDigest: typeof runDigest;
  createRequestCache: typeof createRequestCache;
}

/** Runs the digest over `api`, its charts (over `charts`) drawn by `chartPainter`: what it mailed and logged. */
export async function mailedDigest(
  modules: DigestModules,
  api: InsightsApi,
  chartPainter: ChartPainter,
  charts: { windowDays: number } = { windowDays: 56 },
) {
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
    charts,
    slack: null,
    email: { to: ["qa@example.com"], attachXlsx: false },
  });
  const outcome = await modules.runDigest(
    { team: aTeam({ alerts: [] }), digest, fireAt: new Date("2026-11-16T08:00:00Z") },
    {
      api,
      slack: null,
      msteams: null,
      webhook: null,
      pagerduty: null,
      email: {
        maxBytes: 10_000_000,
        measure: async () => 1,
        send: async (message) => {
          sent.push(message);
          return { messageId: message.messageId, accepted: message.to, rejected: [] };
        },
      },
      ledger: null,
      cache: modules.createRequestCache(),
      logger: pino({ level: "warn" }, sink),
      chartPainter,
    },
  );
  return { outcome, sent, logs: logs.join("") };
}
