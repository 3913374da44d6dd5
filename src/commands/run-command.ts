import { hostname } from "node:os";
import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import { createClients } from "../create-deps.js";
import { claimingLedger } from "../deliver/claiming-ledger.js";
import type { DeliveryResult } from "../deliver/deliver-all.js";
import { worthRetrying } from "../errors.js";
import { createRequestCache } from "../insights/collect-insights.js";
import { createLogger } from "../logger.js";
import { describeDigestFire, digestSlot } from "../pipeline/digest/digest-slot.js";
import { runDigest } from "../pipeline/digest/run-digest.js";
import { plural } from "../render/format.js";
import { printableText } from "../render/printable-text.js";
import { nameWithId } from "../render/project-name.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import { sendingElsewhere } from "../state/delivery-due.js";
import type { SlotLog, StoreHealth } from "../state/ledger.js";
import { openStore, storeExists } from "../state/open/open-store.js";
import { firstRetryAt } from "../timetable/retry-delays.js";
import { findDigest, findTeam, loadCommandConfig } from "./command-context.js";
import { digestFireAt } from "./digest-fire-at.js";
import { inNameOrder } from "./outbox-lines.js";
import { terminalWidth } from "./terminal-width.js";

export interface RunOptions {
  team: string;
  digest: string;
  at?: Date | string;
  outbox?: string;
  force?: boolean;
  config?: string;
}

/**
 * `run`: one digest now: the slot of the schedule's latest fire at or before --at (the
 * daemon's slot, with its key). Exit 0 when every destination has it, 1 when one failed. The slot is
 * recorded in the ledger like the daemon's, so neither sends it twice: a delivered slot is
 * reported, not resent, unless `--force`; a failed destination stays open for the daemon to
 * retry. The outbox never touches the ledger.
 */
export async function runCommand(opts: RunOptions, out: (line: string) => void): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: !opts.outbox, team: opts.team });
  const team = findTeam(config, opts.team);
  const digest = findDigest(team, opts.digest);
  const job = { team, digest, fireAt: digestFireAt(opts.at, team, digest) };
  // Every line fits the terminal (80 columns when piped): a wider one breaks between words,
  // the rest indented two more. A file's path stays on its line: it cannot be broken.
  const width = terminalWidth();
  const say = (line: string) => {
    for (const fitted of fitLine(line, width)) out(fitted);
  };
  // The fire taken may not be today's (a Saturday's run is Friday's): say which, first.
  say(`${digestSlot(job).key}: ${describeDigestFire(job)}`);
  const logger = createLogger({ secretPaths: SECRET_LOG_PATHS });
  const ledger = opts.outbox ? null : await openStore(config.state, { logger });
  // An outbox run records nothing, yet shows what a real post of the slot would carry: the
  // alerts firing now are read from the ledger when there is one, and nothing is written to it.
  const states =
    ledger ?? (storeExists(config.state) ? await openStore(config.state, { logger }) : null);
  try {
    if (ledger && !opts.force) {
      const key = digestSlot(job).key;
      const busy = await describeSendingElsewhere(ledger, key, config.state.sendTimeoutMs);
      if (busy) {
        say(busy);
        return 1;
      }
      const delivered = await describeDelivered(ledger, key);
      if (delivered) {
        say(delivered);
        return 0;
      }
    }
    const clients = createClients(config, {
      logger,
      foreground: true,
      ...(opts.outbox ? { outbox: opts.outbox } : {}),
    });
    try {
      const outcome = await runDigest(job, {
        api: clients.api,
        ...clients.digests,
        chartPainter: clients.chartPainter,
        // Each destination is claimed at the moment of sending, so a daemon that started the
        // same send meanwhile keeps it: this run leaves it alone instead of posting twice.
        ledger:
          ledger &&
          claimingLedger(ledger, {
            owner: `run pid ${process.pid} on ${hostname()}`,
            sendTimeoutMs: config.state.sendTimeoutMs,
            take: opts.force ? "any" : "open",
          }),
        ...(states
          ? {
              firingAlerts: (name: string) => states.firingAlerts(name),
              alertEvaluations: (query: { team: string; from: string; to: string }) =>
                states.alertEvaluations(query),
            }
          : {}),
        cache: createRequestCache(),
        logger,
        outbox: Boolean(opts.outbox),
        // Left open rather than failed for good, so the daemon still delivers the slot.
        ...(ledger ? { retryAt: firstRetryAt(() => new Date()) } : {}),
      });
      say(`${outcome.key}: ${plural(outcome.report.projects.length, "project")}`);
      for (const p of outcome.report.projects) {
        if (p.status === "unavailable") {
          const name = printableText(nameWithId(p.name, p.projectId));
          say(`  ! ${name} left out, unavailable: ${p.reason.message}`);
        }
      }
      for (const delivery of outcome.deliveries)
        say(
          `  ${describeDelivery(delivery, { recorded: ledger !== null, outbox: Boolean(opts.outbox) })}`,
        );
      if (outcome.deliveries.length === 0)
        say("  no destination (add slack or email to the digest)");
      for (const file of inNameOrder(clients.outboxFiles ?? [])) out(`  wrote ${file}`);
      const undelivered = outcome.deliveries.some(
        (d) => d.status === "failed" || d.status === "waiting",
      );
      // Delivered without a project is still a problem the operator must fix (an id, a key).
      const leftOut = outcome.report.projects.some((p) => p.status === "unavailable");
      return undelivered || leftOut ? 1 : 0;
    } finally {
      await clients.close();
    }
  } finally {
    await states?.close();
  }
}

/** "key: being sent …" when another process (the daemon) is sending the slot now, else null. */
async function describeSendingElsewhere(
  ledger: Pick<SlotLog, "getSlot">,
  key: string,
  sendTimeoutMs: number,
): Promise<string | null> {
  const at = { now: new Date(), sendTimeoutMs };
  const slot = await ledger.getSlot(key);
  const busy = (slot?.deliveries ?? []).filter((d) => sendingElsewhere(d, at));
  if (busy.length === 0) return null;
  const since = busy.map((d) => `${d.destination} since ${d.updatedAt.toISOString()}`).join(", ");
  return `${key}: another process is sending it right now (${since}) — check \`history\` in a few minutes; --force sends anyway, at the risk of a second post`;
}

/** "key: already delivered …" when the ledger has the slot done, else null. */
async function describeDelivered(
  ledger: Pick<SlotLog, "isSlotDelivered" | "getSlot"> & Pick<StoreHealth, "location">,
  key: string,
): Promise<string | null> {
  if (!(await ledger.isSlotDelivered(key))) return null;
  const deliveries = (await ledger.getSlot(key))?.deliveries ?? [];
  const states = deliveries.map(
    (d) => `${d.destination} ${d.state === "sent" ? "sent" : "failed"}`,
  );
  return `${key}: already delivered${states.length ? ` (${states.join(", ")})` : ""}, says the ledger ${ledger.location} — --force sends it again`;
}

function describeDelivery(
  delivery: DeliveryResult,
  { recorded, outbox }: { recorded: boolean; outbox: boolean },
): string {
  const sent = outbox ? "written to the outbox" : "sent";
  switch (delivery.status) {
    case "failed":
      return `✗ ${delivery.id} failed: ${delivery.error?.message ?? "unknown error"}${recorded ? retryNote(delivery.error) : ""}`;
    case "waiting":
      return `… ${delivery.id} was left alone: another process is sending it right now — check \`history\` in a few minutes; --force sends anyway, at the risk of a second post`;
    case "already-sent":
      return `= ${delivery.id} was already delivered (the ledger says so); --force sends again`;
    case "recovered":
      return `✓ ${delivery.id} had been delivered before a restart; not sent again`;
    case "sent":
      return delivery.error
        ? `✓ ${delivery.id} ${sent}, but: ${delivery.error.message}`
        : `✓ ${delivery.id} ${sent}`;
  }
}

/** What happens next to a recorded failure: the daemon retries it, unless no retry can mend it. */
function retryNote(error: Error | undefined): string {
  return worthRetrying(error)
    ? " (recorded; a running daemon retries it)"
    : " (recorded; not retried: fix the cause, then run again)";
}
