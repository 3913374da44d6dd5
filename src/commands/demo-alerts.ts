import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import type { Clients } from "../create-deps.js";
import { claimingLedger } from "../deliver/claiming-ledger.js";
import type { RequestCache } from "../insights/collect-insights.js";
import type { Logger } from "../logger.js";
import { alertLedger } from "../pipeline/alert/alert-types.js";
import { runAlert } from "../pipeline/alert/run-alert.js";
import { type IncidentAlert, runIncidents } from "../pipeline/incident/run-incidents.js";
import { renderTerminalAlert } from "../render/alert/terminal-alert.js";
import { openLedger } from "../state/sqlite/open-ledger.js";
import { nextFires } from "../timetable/cron-fires.js";

const DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * The demo's alerts: each alert evaluated at each of its fires over the last week, oldest
 * first, against a ledger of the demo's own (a temporary file), so the states carry
 * from one day to the next exactly as the daemon's would. Returns the failed deliveries.
 */
export async function runDemoAlerts(
  config: ResolvedConfig,
  clients: Clients,
  deps: { cache: RequestCache; logger: Logger; now: Date; out: string },
  out: (line: string) => void,
): Promise<number> {
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
        out(`━━ ${team.name} / alert ${alert.name} ━━ each day of the last ${DAYS}, in order`);
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
          for (const line of renderTerminalAlert(alert, {
            ...outcome,
            evaluation: outcome.evaluation,
          }))
            out(line);
          const files = (clients.outboxFiles ?? []).slice(before).map((f) => basename(f));
          if (files.length > 0) out(`  \u2192 ${deps.out}/ ${files.join("  ")}`);
        }
      }
    }
    if (config.incidents) {
      const incidents = config.incidents;
      out("");
      out(
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
          out(`  ${incident.fireAt.toISOString().slice(0, 16)}Z  🚨 ${incident.record.summary}`);
          for (const m of incident.record.members) out(`      ${m.team} / ${m.alert}: ${m.name}`);
        }
        const still = new Set(after.map((i) => i.key));
        for (const key of [...open].filter((k) => !still.has(k))) {
          out(`  ${new Date(at).toISOString().slice(0, 16)}Z  ✅ resolved ${key}`);
        }
        const files = (clients.outboxFiles ?? []).slice(before).map((f) => basename(f));
        if (files.length > 0) out(`  \u2192 ${deps.out}/ ${files.join("  ")}`);
      }
    }
  } finally {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return failed;
}
