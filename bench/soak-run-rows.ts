import type { LoggedRequest } from "../src/insights/emulator/start-emulator.js";
import { median } from "./bench-support.js";
import { byLabel, type Scrape } from "./scrape-metrics.js";
import type { Row } from "./soak-report.js";
import type { SlotTally } from "./soak-slots.js";

// The rows that say what the soak put the daemon through and how it coped, none of them a
// pass or fail: how late slots arrived, the CPU it used, the faults it met, and its own
// account of slots, deliveries and problems (/metrics and its log).

const PREFIX = "insights_reporter_";

export interface RunFacts {
  tally: SlotTally;
  /** The daemon's CPU seconds while watched; NaN if it had exited. */
  cpuS: number;
  ranS: number;
  requestLog: readonly LoggedRequest[];
  /** /metrics at the end; null if the daemon had exited. */
  finalScrape: Scrape | null;
  logs: readonly Record<string, unknown>[];
}

/** Log lines at warn (40) and above, grouped by level and message, most frequent first. */
export function noisyLogLines(logs: readonly Record<string, unknown>[]) {
  const counts = new Map<string, { level: number; msg: string; count: number }>();
  for (const line of logs) {
    const level = Number(line.level);
    if (!(level >= 40)) continue;
    const msg = String(line.msg);
    const entry = counts.get(`${level} ${msg}`) ?? { level, msg, count: 0 };
    entry.count++;
    counts.set(`${level} ${msg}`, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count);
}

export function runRows(facts: RunFacts): Row[] {
  const { tally, finalScrape } = facts;
  const late = (job: "minute" | "every") =>
    tally.counts
      .filter((c) => c.slot.job === job && c.lateS !== null)
      .map((c) => c.lateS as number);
  const minuteLate = late("minute");
  const faults = new Map<string, number>();
  for (const r of facts.requestLog)
    if (r.fault) faults.set(r.fault, (faults.get(r.fault) ?? 0) + 1);
  const faulted = [...faults.values()].reduce((a, b) => a + b, 0);
  const noisy = noisyLogLines(facts.logs);
  const lines = (keep: (level: number) => boolean) =>
    noisy.filter((l) => keep(l.level)).reduce((sum, l) => sum + l.count, 0);
  return [
    {
      figure: "fire → post seen, slots of their own minute (median; slowest)",
      target: "reported",
      measured: minuteLate.length
        ? `${median(minuteLate).toFixed(1)} s; ${Math.max(...minuteLate).toFixed(1)} s`
        : "—",
      ok: null,
    },
    {
      figure: "daemon CPU while watched",
      target: "reported",
      measured: Number.isNaN(facts.cpuS)
        ? "—"
        : `${facts.cpuS.toFixed(1)} s in ${facts.ranS.toFixed(0)} s (${((facts.cpuS / facts.ranS) * 100).toFixed(2)}% of a core)`,
      ok: null,
    },
    {
      figure: "insights requests answered by the emulator, and the faults among them",
      target: "reported",
      measured: `${facts.requestLog.length} requests, ${faulted} faulted (${list(faults)})`,
      ok: null,
    },
    {
      figure: "the daemon's API requests by status (/metrics)",
      target: "reported",
      measured: finalScrape
        ? list(byLabel(finalScrape, `${PREFIX}api_requests_total`, "status"))
        : "—",
      ok: null,
    },
    {
      figure: "slot runs by result (/metrics)",
      target: "reported",
      measured: finalScrape ? list(byLabel(finalScrape, `${PREFIX}slots_total`, "result")) : "—",
      ok: null,
    },
    {
      figure: "delivery attempts by result (/metrics)",
      target: "reported",
      measured: finalScrape
        ? list(byLabel(finalScrape, `${PREFIX}deliveries_total`, "result"))
        : "—",
      ok: null,
    },
    {
      figure: "daemon log lines at warn / error and above",
      target: "reported",
      measured: `${lines((level) => level === 40)} / ${lines((level) => level >= 50)}`,
      ok: null,
    },
  ];
}

function list(counts: ReadonlyMap<string, number>): string {
  return counts.size === 0
    ? "none"
    : [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => `${name} ${n}`)
        .join(", ");
}
