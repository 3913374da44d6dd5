import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import { createApiClient, createChartPainter } from "../create-read-clients.js";
import { createRequestCache } from "../insights/collect-insights.js";
import { createLogger } from "../logger.js";
import { defaultChartDays } from "../periods/chart-window.js";
import { digestCharts } from "../pipeline/digest/chart-stage.js";
import { describeDigestFire, digestSlot } from "../pipeline/digest/digest-slot.js";
import { buildDigestReport } from "../pipeline/digest/report-stage.js";
import { plural } from "../render/format.js";
import { printableText } from "../render/printable-text.js";
import { renderTerminalReport } from "../render/terminal/terminal-report.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import { openStore, storeExists } from "../state/open/open-store.js";
import { findDigest, findTeam, loadCommandConfig, useColor } from "./command-context.js";
import { digestFireAt } from "./digest-fire-at.js";
import { terminalWidth } from "./terminal-width.js";
import { writeCharts } from "./write-charts.js";

export interface PreviewOptions {
  team: string;
  digest?: string;
  alert?: string;
  at?: Date | string;
  config?: string;
  /** A directory to write the digest's trend charts to, as PNGs. */
  charts?: string;
}

/** `preview`: the digest as terminal text; nothing is sent, so no Slack or SMTP credentials are needed. */
export async function previewCommand(
  opts: PreviewOptions,
  out: (line: string) => void,
): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: false });
  const team = findTeam(config, opts.team);
  if (opts.alert !== undefined) {
    // The alert pipeline and every destination's renderers load only for an alert's preview.
    const { previewAlert } = await import("./preview-alert.js");
    return previewAlert(config, team, opts.alert, alertAt(opts.at), out);
  }
  if (opts.digest === undefined) return listPreviews(team, opts.config, out);
  const digest = findDigest(team, opts.digest);
  const logger = createLogger({ level: "warn", secretPaths: SECRET_LOG_PATHS });
  const api = createApiClient(config);
  const chartPainter = createChartPainter();
  // What a real post would carry: the alerts firing now, read from the ledger (never written).
  const ledger = storeExists(config.state) ? await openStore(config.state, { logger }) : null;
  try {
    const cache = createRequestCache();
    const job = { team, digest, fireAt: digestFireAt(opts.at, team, digest) };
    const { report } = await buildDigestReport(job, {
      api,
      cache,
      logger,
      ...(ledger ? { firingAlerts: (name: string) => ledger.firingAlerts(name) } : {}),
    });
    out(renderTerminalReport(report, { color: useColor(), width: terminalWidth() }).trimEnd());
    // After the post's own text, which it shows as sent: which fire's slot this is.
    out("");
    const fire = `${digestSlot(job).key}: ${describeDigestFire(job)}`;
    for (const line of fitLine(fire, terminalWidth())) out(line);
    if (opts.charts !== undefined) {
      // The digest's own window, or the default for its period when its config has no charts.
      const days = digest.charts?.windowDays ?? defaultChartDays(digest.period);
      const charts = await digestCharts({ team }, report, days, { api, cache, chartPainter });
      out("");
      for (const path of await writeCharts(opts.charts, charts)) out(`wrote ${path}`);
    }
    return 0;
  } finally {
    await Promise.all([chartPainter.close(), api.close(), ledger?.close()]);
  }
}

/** `preview --team T` alone: what the team has to preview, and the command for each. */
function listPreviews(
  team: ReturnType<typeof findTeam>,
  config: string | undefined,
  out: (line: string) => void,
): number {
  const width = terminalWidth();
  const say = (line: string) => {
    for (const fitted of fitLine(line, width)) out(fitted);
  };
  const items = [
    ...team.digests.map((d) => ({
      kind: "digest",
      name: d.name,
      schedule: d.schedule,
      what: d.period,
    })),
    ...team.alerts.map((a) => ({
      kind: "alert",
      name: a.name,
      schedule: a.schedule,
      what: a.metric,
    })),
  ];
  if (items.length === 0) {
    say(`team ${team.name} has no digests or alerts to preview — add one to its config`);
    return 0;
  }
  const names = items.map((i) => printableText(i.name));
  const nameWidth = Math.max(...names.map((n) => n.length));
  const scheduleWidth = Math.max(...items.map((i) => i.schedule.length));
  say(
    `team ${team.name}: ${plural(team.digests.length, "digest")}, ${plural(team.alerts.length, "alert")}`,
  );
  for (const [i, item] of items.entries()) {
    say(
      `  ${item.kind.padEnd(6)} ${(names[i] ?? "").padEnd(nameWidth)}  ${item.schedule.padEnd(scheduleWidth)}  ${item.what}`,
    );
  }
  say("preview one with:");
  const suffix = config === undefined ? "" : ` --config ${config}`;
  for (const [i, item] of items.entries()) {
    say(`  insights-reporter preview --team ${team.name} --${item.kind} ${names[i]}${suffix}`);
  }
  return 0;
}

// An alert's window has no "day's fire": a date-only --at is that day's start in UTC.
function alertAt(at: Date | string | undefined): Date {
  return at === undefined ? new Date() : typeof at === "string" ? new Date(at) : at;
}
