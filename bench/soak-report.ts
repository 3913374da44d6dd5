import { median } from "./bench-support.js";
import type { MinuteFigures, Probe, RssSample } from "./soak-monitor.js";
import type { SlotTally } from "./soak-slots.js";

// The soak's verdicts and its write-up: a row per figure (target, measured, met or not), and
// bench/SOAK.md with the rows, a row per minute and the run's circumstances.

/** RSS must not grow by this much from minute 2 to the end. */
export const RSS_GROWTH_LIMIT = 0.1;

export interface Row {
  figure: string;
  target: string;
  measured: string;
  /** null: reported, not checked. */
  ok: boolean | null;
}

export interface RssGrowth {
  baselineBytes: number;
  finalBytes: number;
  growth: number;
  windowS: number;
}

/**
 * Growth of resident memory from minute 2 to the end: the median of the samples in a window
 * starting at 2:00 against the median of those in a window ending at the last sample. A
 * window is a minute (a whole cycle of one slot's work, so both see the same mix of peaks),
 * shorter when the run is too short for two minutes after 2:00; null under 30 s.
 */
export function rssGrowth(samples: readonly RssSample[]): RssGrowth | null {
  const endS = samples.at(-1)?.atS ?? 0;
  const windowS = Math.min(60, (endS - 120) / 2);
  if (windowS < 30) return null;
  const within = (from: number, to: number) =>
    samples.filter((s) => s.atS >= from && s.atS < to).map((s) => s.bytes);
  const baselineBytes = median(within(120, 120 + windowS));
  const finalBytes = median(within(endS - windowS, endS + 1));
  return { baselineBytes, finalBytes, growth: finalBytes / baselineBytes - 1, windowS };
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const ms = (seconds: number) => `${(seconds * 1000).toFixed(1)} ms`;

/** The rows about slots: for digests and for alerts, each expected key delivered exactly once. */
export function slotRows(tally: SlotTally): Row[] {
  return (["digest", "alert"] as const).map((kind) => {
    const counts = tally.counts.filter((c) => c.slot.kind === kind);
    const keys = new Set(counts.map((c) => c.slot.key));
    const missing = tally.missing.filter((k) => keys.has(k)).length;
    const doubled = tally.doubled.filter((k) => keys.has(k)).length;
    const unexpected = tally.unexpected.filter((k) => k.includes(".alert.") === (kind === "alert"));
    const every = counts.filter((c) => c.slot.job === "every").length;
    const where = kind === "digest" ? "post, workbook upload, mail" : "post, mail";
    return {
      figure: `${kind} slots (${counts.length - every} of their own minute + ${every} of \`* * * * *\`): each ${where} exactly once`,
      target: "0 missing, 0 doubled, 0 unexpected",
      measured: `${counts.length - missing - doubled} right; ${missing} missing, ${doubled} doubled, ${unexpected.length} unexpected${unexpected.length ? ` (${unexpected.join(", ")})` : ""}`,
      ok: missing === 0 && doubled === 0 && unexpected.length === 0,
    };
  });
}

/** The rows about the ops server: ready at every minute's end, and how fast /healthz answered. */
export function opsRows(health: readonly Probe[], minutes: readonly MinuteFigures[]): Row[] {
  const notReady = minutes.filter((m) => m.readyStatus !== 200);
  const answered = health.filter((p) => p.status === 200).map((p) => p.ms);
  const slowest = health.reduce<Probe | null>((a, p) => (a && a.ms >= p.ms ? a : p), null);
  return [
    {
      figure: "/readyz at the end of every minute",
      target: "200 each time",
      measured: notReady.length
        ? `${notReady.length} of ${minutes.length} not 200 (${notReady.map((m) => `minute ${m.minute}: ${m.readyStatus}`).join(", ")})`
        : `200 all ${minutes.length} times`,
      ok: notReady.length === 0,
    },
    {
      figure: "/healthz answer time, asked every second (median; slowest, when)",
      target: "reported",
      measured: slowest
        ? `${median(answered).toFixed(1)} ms; ${slowest.ms.toFixed(0)} ms at ${slowest.atS.toFixed(0)} s; ${health.length - answered.length} of ${health.length} not 200`
        : "—",
      ok: null,
    },
  ];
}

/** The rows about memory and the event loop. */
export function resourceRows(rss: readonly RssSample[], minutes: readonly MinuteFigures[]): Row[] {
  const growth = rssGrowth(rss);
  const slope = rssSlope(rss);
  const steady = minutes.filter((m) => m.minute >= 2);
  const p99s = (steady.length ? steady : minutes).map((m) => m.loopP99S);
  const heap2 = minutes.find((m) => m.minute === 2)?.heapUsedBytes;
  const heapEnd = minutes.at(-1)?.heapUsedBytes;
  return [
    {
      figure: "RSS growth, minute 2 → end (medians of the first and last window)",
      target: `< ${RSS_GROWTH_LIMIT * 100}%`,
      measured: growth
        ? `${(growth.growth * 100).toFixed(1)}% (${mb(growth.baselineBytes)} → ${mb(growth.finalBytes)}, ${growth.windowS.toFixed(0)} s windows)`
        : "not measured: the run is too short (needs 3 minutes)",
      ok: growth ? growth.growth < RSS_GROWTH_LIMIT : null,
    },
    {
      figure: "RSS trend from minute 2 (least-squares slope of the 5 s samples)",
      target: "reported",
      measured: slope === null ? "—" : `${slope < 0 ? "−" : "+"}${mb(Math.abs(slope))} a minute`,
      ok: null,
    },
    {
      figure: "RSS peak",
      target: "reported",
      measured: mb(Math.max(0, ...rss.map((s) => s.bytes))),
      ok: null,
    },
    {
      figure: "V8 heap used, end of minute 2 → end",
      target: "reported",
      measured:
        heap2 !== undefined && heapEnd !== undefined ? `${mb(heap2)} → ${mb(heapEnd)}` : "—",
      ok: null,
    },
    {
      figure: "event-loop delay p99, per minute from minute 2 (median; worst)",
      target: "reported",
      measured: p99s.length
        ? `${ms(median(p99s))}; worst ${ms(Math.max(...p99s))} (bounds the whole run's p99)`
        : "—",
      ok: null,
    },
    {
      figure: "event-loop delay max",
      target: "reported",
      measured: minutes.length ? ms(Math.max(...minutes.map((m) => m.loopMaxS))) : "—",
      ok: null,
    },
  ];
}

export interface DaemonEnd {
  /** The daemon exited before the soak stopped it. */
  crashed: boolean;
  /** Its exit after SIGTERM; null when it was still running after `waitedS` (and was killed). */
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  ranS: number;
  waitedS: number;
}

/** The row: the daemon lasted the whole soak and stopped cleanly when asked. */
export function stopRow(end: DaemonEnd): Row {
  return {
    figure: "daemon ran to the end and stopped on SIGTERM",
    target: "exit 0",
    measured: end.crashed
      ? `exited by itself after ${end.ranS.toFixed(0)} s`
      : end.exit === null
        ? `still running ${end.waitedS} s after SIGTERM (killed)`
        : `exit ${end.exit.code ?? end.exit.signal}`,
    ok: !end.crashed && end.exit?.code === 0,
  };
}

/** The rows as a Markdown table. */
export function rowsTable(rows: readonly Row[]): string {
  const verdict = (ok: boolean | null) => (ok === null ? "reported" : ok ? "met" : "**missed**");
  return [
    "| figure | target | measured | |",
    "|---|---|---|---|",
    ...rows.map((r) => `| ${r.figure} | ${r.target} | ${r.measured} | ${verdict(r.ok)} |`),
  ].join("\n");
}

/**
 * How fast resident memory grew from 2:00 on, in bytes a minute: the least-squares slope of the
 * samples. Growth under the limit over a short run can still be a slope that adds up over days.
 */
export function rssSlope(samples: readonly RssSample[]): number | null {
  const points = samples.filter((s) => s.atS >= 120);
  if (points.length < 3) return null;
  const meanT = points.reduce((sum, p) => sum + p.atS, 0) / points.length;
  const meanB = points.reduce((sum, p) => sum + p.bytes, 0) / points.length;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.atS - meanT) * (p.bytes - meanB);
    den += (p.atS - meanT) ** 2;
  }
  return den === 0 ? null : (num / den) * 60;
}
