import type { DigestConfig } from "../../config/types.js";
import type { DeliveryJob } from "../../deliver/deliver-all.js";
import { digestDeliveryJobs } from "../../destinations/delivery-jobs.js";
import type { FitEmail } from "../../destinations/destination-module.js";
import { fitEmailToSize } from "../../destinations/email/messages/fit-email-to-size.js";
import {
  DESTINATION_KINDS,
  DESTINATIONS,
  type DigestClients,
  type DigestMessages,
} from "../../destinations/registry.js";
import { addDays, startOfLocalDay } from "../../periods/calendar-date.js";
import { nameWithId } from "../../render/project-name.js";
import { exportCommandLine } from "../../render/workbook/workbook-name.js";
import type { Report } from "../../report/types.js";
import type { DigestJob } from "./digest-slot.js";
import type { DigestDeps } from "./digest-types.js";

// The digest's record and deliver stages: which destinations the slot has, the delivery job of
// each rendered message (with the operator's note for `history`), and a failure recorded on every
// open destination when the digest could not be built.

/** The delivery jobs of the rendered digest, each recorded with the operator's note. */
export function digestJobs(
  job: DigestJob,
  key: string,
  report: Report,
  messages: DigestMessages,
  deps: DigestDeps,
): DeliveryJob[] {
  return withNote(
    digestDeliveryJobs(key, messages, deliveryDeps(job, report, deps)),
    operatorNote(report),
  );
}

/** The destinations this digest delivers to with the clients at hand, as ledger ids. */
export function destinationIds(digest: DigestConfig, deps: DigestClients): string[] {
  return DESTINATION_KINDS.flatMap((kind) => {
    const target = digest[kind];
    return target && deps[kind] ? [DESTINATIONS[kind].id(target as never)] : [];
  });
}

export async function recordRunFailure(
  key: string,
  destinations: string[],
  error: unknown,
  deps: DigestDeps,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  for (const id of destinations) {
    const before = await deps.ledger?.beginAttempt(key, id);
    // Sent, or left alone (a later retry, given up, another process sending it): untouched.
    if (!before || before.state === "sent" || before.state === "later") continue;
    const next = deps.retryAt?.(before.attempts + 1) ?? null;
    await deps.ledger?.markFailed(key, id, message, next, before.claim);
  }
}

/**
 * What the operator must fix about a digest that went out: each project left out because it
 * could not be fetched, with the reason and its fix. The channel names the project without the
 * advice; this goes with the deliveries to the ledger, so `history` shows it. Null: nothing.
 */
function operatorNote(report: Report): string | null {
  const left = report.projects.flatMap((p) =>
    p.status === "unavailable"
      ? [`left out ${nameWithId(p.name, p.projectId)}: ${p.reason.message}`]
      : [],
  );
  return left.length === 0 ? null : left.join("; ");
}

/** The jobs, each delivery recorded with `note` (see `Receipt.note`). */
function withNote(jobs: DeliveryJob[], note: string | null): DeliveryJob[] {
  if (note === null) return jobs;
  return jobs.map((job) => ({
    ...job,
    send: async (progress) => ({ ...(await job.send(progress)), note }),
    ...(job.recover
      ? {
          recover: async (progress) => {
            const found = await job.recover?.(progress);
            return found ? { ...found, note } : null;
          },
        }
      : {}),
  }));
}

/** What the digest's deliveries need besides the destinations: the size cap, where to look. */
function deliveryDeps(job: DigestJob, report: Report, deps: DigestDeps) {
  const hint = exportCommandLine(job.team.name, report.periods.current);
  return {
    ...clientsOf(deps),
    logger: deps.logger,
    fitEmail: ((message, cap) => fitEmailToSize(message, { ...cap, hint })) satisfies FitEmail,
    // Read only by a send that looks for an earlier post (after a crash, or with a ledger newer
    // than the slot), so worked out then: a zone's calendar costs a digest more than its use.
    get since() {
      return startOfLocalDay(addDays(report.periods.current.end, 1), job.team.timezone);
    },
    reads: deps.cache.reads,
    targets: job.digest,
  };
}

/** The digest's clients, one per destination kind. */
function clientsOf(deps: DigestClients): DigestClients {
  return Object.fromEntries(DESTINATION_KINDS.map((kind) => [kind, deps[kind]])) as DigestClients;
}
