import type { MinuteFigures } from "./soak-monitor.js";
import { mb, ms } from "./soak-report.js";
import { noisyLogLines } from "./soak-run-rows.js";
import type { SlotTally } from "./soak-slots.js";

// bench/SOAK.md: when and where the soak ran, what it ran, the verdicts, a row per minute, and
// the daemon's warnings — enough to compare two runs without rerunning either.

export interface Circumstances {
  startedIso: string;
  machine: string;
  minutes: number;
  ranS: number;
  faults: string;
  projects: number;
  /** os.loadavg() before and after: the machine is shared. */
  loadBefore: number[];
  loadAfter: number[];
  logs: readonly Record<string, unknown>[];
}

export function soakMarkdown(
  run: Circumstances,
  table: string,
  minutes: readonly MinuteFigures[],
  tally: SlotTally,
): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
  const noisy = noisyLogLines(run.logs);
  const problems = [
    ...tally.missing.map((k) => `- missing: \`${k}\``),
    ...tally.doubled.map((k) => `- doubled: \`${k}\``),
    ...tally.unexpected.map((k) => `- unexpected: \`${k}\``),
  ];
  return `# Soak results

Measured by \`npm run soak\` (SOAK_MINUTES=${run.minutes}) from ${run.startedIso.slice(0, 16)}Z, ${run.machine}.
The daemon ran ${(run.ranS / 60).toFixed(1)} minutes. Load average (1 / 5 / 15 min) ${load(run.loadBefore)}
before and ${load(run.loadAfter)} after: the machine is shared with other work, so CPU and
event-loop figures include its contention.

## What ran

- \`node dist/cli.js start\`, in UTC over ${run.projects} projects: a \`* * * * *\` digest and alert
  (one slot a day: their later fires must post nothing), and for each of the ${run.minutes} minutes a
  daily digest and a daily alert at that minute (a new slot every minute). Digests post to the
  fake Slack with the workbook uploaded into their thread and mail the workbook; alerts (flaky
  rate over thresholds every project breaches, so each fires on its first evaluation and stays
  firing) post and mail. The alerts belong to a second team over the same projects: a digest
  lists its team's firing alerts, and would grow by one every minute.
- The emulator with faults \`${run.faults}\` (the API timeout is 5 s, so \`slow\` is a timeout); the
  fake Slack rate-limits one post every third minute; a real SMTP server on loopback.
- Watched from outside: arrivals at the fakes (per metadata key, upload thread, Message-ID),
  RSS from /proc every 5 s, /healthz every second, /metrics and /readyz once a minute, the
  daemon's log, \`history\` at the end.
- Event-loop figures are the daemon's \`nodejs_eventloop_lag_p99/max_seconds\` gauges, which cover
  the time since the previous scrape, less the 100 ms sampling interval they include.

## Verdicts

${table}
${problems.length ? `\n${problems.join("\n")}\n` : ""}
## Minute by minute

${minutesTable(minutes)}

## The daemon's warnings and errors

${noisy.length ? noisy.map((l) => `- ${l.count} × level ${l.level}: ${l.msg}`).join("\n") : "none"}
`;
}

/** A row per minute, as /metrics read at its end: memory by kind, handles, event loop, posts. */
export function minutesTable(minutes: readonly MinuteFigures[]): string {
  return [
    "| minute | RSS | heap used | heap committed | external | handles | loop delay p99 | loop delay max | posts by then |",
    "|---|---|---|---|---|---|---|---|---|",
    ...minutes.map(
      (m) =>
        `| ${m.minute} | ${mb(m.rssBytes)} | ${mb(m.heapUsedBytes)} | ${mb(m.heapTotalBytes)} | ${mb(m.externalBytes)} | ${m.handles} | ${ms(m.loopP99S)} | ${ms(m.loopMaxS)} | ${m.posted} |`,
    ),
  ].join("\n");
}
