import { createClients } from "../create-deps.js";
import type { DeliveryResult } from "../deliver/deliver-all.js";
import { createRequestCache } from "../insights/collect-insights.js";
import { createLogger } from "../logger.js";
import { runDigest } from "../run-digest.js";
import { findDigest, findTeam, loadCommandConfig } from "./command-context.js";

export interface RunOptions {
  team: string;
  digest: string;
  at?: Date;
  outbox?: string;
  force?: boolean;
  config?: string;
}

/** `run`: one digest now. Exit 0 when every destination has it, 1 when one failed. */
export async function runCommand(opts: RunOptions, out: (line: string) => void): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: !opts.outbox });
  const team = findTeam(config, opts.team);
  const digest = findDigest(team, opts.digest);
  const logger = createLogger();
  const clients = createClients(config, {
    logger,
    ...(opts.outbox ? { outbox: opts.outbox } : {}),
  });
  try {
    const outcome = await runDigest(
      { team, digest, fireAt: opts.at ?? new Date() },
      {
        api: clients.api,
        slack: clients.slack,
        email: clients.email,
        ledger: null,
        cache: createRequestCache(),
        logger,
      },
    );
    out(`${outcome.key}: ${outcome.report.projects.length} projects`);
    for (const delivery of outcome.deliveries) out(`  ${describeDelivery(delivery)}`);
    if (outcome.deliveries.length === 0) out("  no destination (add slack or email to the digest)");
    for (const file of clients.outboxFiles ?? []) out(`  wrote ${file}`);
    return outcome.deliveries.some((d) => d.status === "failed") ? 1 : 0;
  } finally {
    await clients.close();
  }
}

function describeDelivery(delivery: DeliveryResult): string {
  switch (delivery.status) {
    case "failed":
      return `✗ ${delivery.id} failed: ${delivery.error?.message ?? "unknown error"}`;
    case "already-sent":
      return `= ${delivery.id} was already delivered (the ledger says so); --force sends again`;
    case "recovered":
      return `✓ ${delivery.id} had been delivered before a restart; not sent again`;
    case "sent":
      return delivery.error
        ? `✓ ${delivery.id} sent, but: ${delivery.error.message}`
        : `✓ ${delivery.id} sent`;
  }
}
