import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import type { Clients } from "../create-deps.js";
import { claimingLedger } from "../deliver/claiming-ledger.js";
import type { RequestCache } from "../insights/collect-insights.js";
import type { Logger } from "../logger.js";
import { alertLedger } from "../pipeline/alert/alert-types.js";
import { runAlert } from "../pipeline/alert/run-alert.js";
import { type IncidentAlert, runIncidents } from "../pipeline/incident/run-incidents.js";
import { renderTerminalAlert } from "../render/alert/terminal-alert.js";
import { printableText } from "../render/printable-text.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import { openLedger } from "../state/sqlite/open-ledger.js";
import { nextFires } from "../timetable/cron-fires.js";
import { outboxLines } from "./outbox-lines.js";

const DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * The demo's alerts: each alert evaluated at each of its fires over the last week, oldest
 * first, against a ledger of the demo's own (a temporary file), so the states carry
 * from one day to the next exactly as the daemon's would. Every line fits `width` columns.
 * Returns the failed deliveries.
 */
export async function runDemoAlerts(
  config: ResolvedConfig,
  clients: Clients,
  deps: { cache: RequestCache; logger: Logger; now: Date; out: string; width: number },
  out: (line: string) => void,
): Promise<number> {
  const say = (line: string) => {
    for (const fitted of fitLine(line, deps.width)) out(fitted);
  };
  // Outside the outbox, which holds only what would be sent; gone when the demo ends.
  const dir = mkdtempSync(join(tmpdir(), "insights-demo-ledger-"));
  const ledger = openLedger(join(dir, "ledger.sqlite"));
  // The demo's own ledger, yet claimed like any sender's: no path reaches a send unclaimed.
  const claimed = alertLedger(
    ledger,
    claimingLedger(ledger, {
      owner: "demo",
      sendTimeoutMs: config.state.sendTimeoutMs,
      take: "open",
    }),
  );
  let failed = 0;
  // Each instant an alert fired at, with the alerts due then: the incident step's input.
  const instants = new Map<number, IncidentAlert[]>();
  try {
    for (const team of config.teams) {
      for (const alert of team.alerts) {
        out("");
        say(`━━ ${team.name} / alert ${alert.name} ━━ each day of the last ${DAYS}, in order`);
        const from = new Date(deps.now.getTime() - DAYS * DAY_MS);
        const fires = nextFires(alert.schedule, team.timezone, from, DAYS * 24).filter(
          (f) => f <= deps.now,
        );
        for (const fireAt of fires) {
          instants.set(fireAt.getTime(), [
            ...(instants.get(fireAt.getTime()) ?? []),
            { team, alert },
          ]);
          const before = clients.outboxFiles?.length ?? 0;
          const outcome = await runAlert(
            { team, alert, fireAt },
            {
              api: clients.api,
              ...clients.alerts,
              ledger: claimed,
              cache: deps.cache,
              logger: deps.logger,
              outbox: true,
              slackButtons: clients.slackButtons,
              chartPainter: clients.chartPainter,
            },
          );
          failed += outcome.deliveries.filter((d) => d.status === "failed").length;
          if (!outcome.evaluation) continue;
          const evaluated = { ...outcome, evaluation: outcome.evaluation };
          for (const line of renderTerminalAlert(alert, evaluated, deps.width)) out(line);
          const files = (clients.outboxFiles ?? []).slice(before);
          for (const line of outboxLines(deps.out, files, "  ", deps.width)) out(line);
        }
      }
    }
    if (config.incidents) {
      const incidents = config.incidents;
      out("");
      say(
        `━━ incidents ━━ alerts firing for ${incidents.minProjects} projects or more at one instant, across teams`,
      );
      const slack =
        clients.digests.slack && clients.alerts.slack
          ? { digest: clients.digests.slack, alert: clients.alerts.slack }
          : null;
      const step = {
        config: incidents,
        ledger,
        deliveries: claimed,
        slack,
        clients: clients.alerts,
        logger: deps.logger,
      };
      // In time order, as the daemon would after each instant's evaluations.
      for (const [at, alerts] of [...instants].sort(([a], [b]) => a - b)) {
        const open = new Set((await ledger.openIncidents()).map((i) => i.key));
        const before = clients.outboxFiles?.length ?? 0;
        await runIncidents(new Date(at), alerts, step);
        const after = await ledger.openIncidents();
        for (const incident of after.filter((i) => !open.has(i.key))) {
          const at = incident.fireAt.toISOString().slice(0, 16);
          say(`  ${at}Z  🚨 ${printableText(incident.record.summary)}`);
          for (const m of incident.record.members)
            say(`      ${m.team} / ${m.alert}: ${printableText(m.name)}`);
        }
        const still = new Set(after.map((i) => i.key));
        for (const key of [...open].filter((k) => !still.has(k))) {
          say(`  ${new Date(at).toISOString().slice(0, 16)}Z  ✅ resolved ${printableText(key)}`);
        }
        const files = (clients.outboxFiles ?? []).slice(before);
        for (const line of outboxLines(deps.out, files, "  ", deps.width)) out(line);
      }
    }
  } finally {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return failed;
}
