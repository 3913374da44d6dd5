import { type DeliveryResult, deliverAll } from "../../deliver/deliver-all.js";
import type { AlertNotification } from "../../destinations/alert-notification.js";
import { alertDeliveryJobs } from "../../destinations/delivery-jobs.js";
import type { FireImages } from "../../destinations/fire-images.js";
import { DESTINATIONS } from "../../destinations/registry.js";
import { collectSpan } from "../../insights/collect-insights.js";
import { addDays, startOfLocalDay } from "../../periods/calendar-date.js";
import type { Period } from "../../periods/types.js";
import { fireChartInput } from "../../render/charts/fire-chart-input.js";
import type { Chart } from "../../render/charts/trend-chart.js";
import type { AlertJob } from "./alert-slot.js";
import type { AlertDeps, AlertLedger } from "./alert-types.js";
import { alertSpans } from "./evaluate-stage.js";

// The alert's deliver stage: each destination's delivery, recorded in the ledger, with the
// fire's charts handed in for the destinations to pull while they build what they send.

/**
 * Sends the notification to each destination it was rendered for; a destination whose message
 * opens the fire pulls the fire's charts while it sends (`images`).
 */
export async function deliverNotification(
  job: AlertJob,
  key: string,
  window: Period,
  notification: AlertNotification | null,
  fired: readonly { scope: string; name: string }[],
  deps: AlertDeps,
): Promise<DeliveryResult[]> {
  if (!notification) return [];
  const images = fireImagesOf(job, window, fired, deps);
  return deliverAll(
    key,
    alertDeliveryJobs(key, notification, {
      ...deps,
      since: postedSince(job, window),
      reads: deps.cache.reads,
      threadTs: threadTsOf(deps),
      moveThread: moveThreadOf(deps.dryRun ? null : deps.ledger),
      targets: job.alert,
      ...(images ? { images } : {}),
    }),
    { ...deps, ledger: deps.dryRun ? null : deps.ledger },
  );
}

/**
 * The fire's charts (`chart: true`, a rate), drawn on the first ask of this send from the days
 * of the fired scopes, through the run's request cache (the evaluation's own requests, so
 * nothing is fetched twice), and handed to every destination that asks after it. None when
 * there are none to draw, or when drawing fails: the news goes out all the same.
 */
export function fireImagesOf(
  job: AlertJob,
  window: Period,
  fired: readonly { scope: string; name: string }[],
  deps: AlertDeps,
): FireImages | null {
  if (!job.alert.chart || fired.length === 0) return null;
  let drawn: Promise<readonly Chart[]> | null = null;
  return { fireCharts: () => (drawn ??= drawFireCharts(job, window, fired, deps)) };
}

async function drawFireCharts(
  job: AlertJob,
  window: Period,
  fired: readonly { scope: string; name: string }[],
  deps: AlertDeps,
): Promise<readonly Chart[]> {
  try {
    const spans = alertSpans(window);
    const { renderFireCharts } = await import("../../render/charts/fire-charts.js");
    const fetched = await Promise.all(
      [spans.trend, spans.prior].map((span) => collectSpan(deps.api, job.team, span, deps.cache)),
    );
    const input = fireChartInput({
      rule: job.alert,
      window,
      spans,
      projects: job.team.projects,
      fetched,
      fired,
    });
    return await renderFireCharts(input, { painter: deps.chartPainter });
  } catch (error) {
    deps.logger.warn(
      { alert: job.alert.name, err: String(error) },
      "the fire's chart was left out",
    );
    return [];
  }
}

/**
 * A part of a fire's delivery that says its first message moved to a new post (the old one was
 * deleted), named by the new ts: one part per move, none ever overwritten.
 */
const MOVED_TO = "moved to ";

/**
 * The ts of a fire's first message in a channel, from its delivery in the ledger: the latest
 * post it moved to, else its own post (recorded as a part even while a chart upload is missing).
 */
function threadTsOf(deps: AlertDeps) {
  return async (rootKey: string, channel: string) => {
    const root = await deps.ledger?.getSlot(rootKey);
    const id = DESTINATIONS.slack.id({ channel });
    const delivery = root?.deliveries.find((d) => d.destination === id);
    const parts = (await deps.ledger?.partsDone?.(rootKey, id)) ?? new Map<string, null>();
    // Slack's ts are fixed-width and grow with time: the greatest is the latest move.
    const moves = [...parts.keys()].filter((p) => p.startsWith(MOVED_TO)).sort();
    const moved = moves.at(-1)?.slice(MOVED_TO.length);
    return moved ?? delivery?.ref ?? parts.get("post") ?? null;
  };
}

/** Records that a fire's first message is now `ts` (see `threadTsOf`); nothing in a dry run. */
function moveThreadOf(ledger: AlertLedger | null) {
  return async (rootKey: string, channel: string, ts: string) => {
    const id = DESTINATIONS.slack.id({ channel });
    await ledger?.recordPart?.(rootKey, id, `${MOVED_TO}${ts}`, ts);
  };
}

/** No evaluation's message precedes the end of its window: where to start looking for one. */
function postedSince(job: AlertJob, window: Period): Date {
  return startOfLocalDay(addDays(window.end, 1), job.team.timezone);
}
