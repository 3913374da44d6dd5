import { expect, it } from "vitest";
import { UpstreamError } from "../../src/errors.js";
import { createRequestCache } from "../../src/insights/collect-insights.js";
import type { InsightsApi } from "../../src/insights/types.js";
import { silentLogger } from "../../src/logger.js";
import { digestSlot } from "../../src/pipeline/digest/digest-slot.js";
import { runDigest } from "../../src/pipeline/digest/run-digest.js";
import { trendChartPainterInThisThread } from "../../src/render/charts/trend-chart.js";
import { dueDestinationsOnly } from "../../src/scheduler/due-destinations.js";
import { beginAttempt } from "../state/begin-attempt.js";
import { manualClock, useTempLedgers } from "../state/ledger-builders.js";
import { aDigest, aTeam } from "./daemon-harness.js";

/**
 * A daemon run whose report cannot be built records the failure only against the destinations
 * it was due to attempt: one given up or waiting for its own retry is left exactly as it was.
 */

const ledgers = useTempLedgers();
const SLACK = "slack:C0123ABCD";
const EMAIL = "email:qa@example.com";

it("leaves a given-up and a waiting destination untouched when the insights API is down", async () => {
  const clock = manualClock("2026-06-10T07:00:00Z");
  const ledger = ledgers.open(undefined, { now: clock.now });
  const team = aTeam();
  const digest = aDigest({ email: { to: ["qa@example.com"], attachXlsx: false } });
  const fireAt = clock.now();
  const { key, periods } = digestSlot({ team, digest, fireAt });
  await ledger.recordSlot({
    key,
    team: team.name,
    kind: "digest",
    job: digest.name,
    fireAt,
    period: periods.current,
    destinations: [SLACK, EMAIL],
  });
  for (const destination of [SLACK, EMAIL]) await beginAttempt(ledger, key, destination);
  await ledger.markFailed(key, SLACK, "given up earlier", null);
  await ledger.markFailed(key, EMAIL, "waiting", new Date("2026-06-10T07:05:00Z"));
  const before = (await ledger.getSlot(key))?.deliveries;

  const down = () => Promise.reject(new UpstreamError("the insights API is down"));
  const api: InsightsApi = { listProjects: down, getInsights: down };
  const run = runDigest(
    { team, digest, fireAt },
    {
      api,
      slack: { post: () => Promise.reject(new Error("not reached")), findPosted: async () => null },
      email: {
        maxBytes: 10_000_000,
        measure: () => Promise.reject(new Error("not reached")),
        send: () => Promise.reject(new Error("not reached")),
      },
      msteams: null,
      webhook: null,
      pagerduty: null,
      ledger: dueDestinationsOnly(ledger, { owner: "test", sendTimeoutMs: 300_000 }),
      cache: createRequestCache(),
      logger: silentLogger(),
      retryAt: () => new Date("2026-06-10T08:00:00Z"),
      chartPainter: trendChartPainterInThisThread(),
    },
  );

  await expect(run).rejects.toThrow(UpstreamError);
  expect((await ledger.getSlot(key))?.deliveries).toEqual(before);
});
