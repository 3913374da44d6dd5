import type { Clients } from "../create-deps.js";
import { runDigest } from "../run-digest.js";
import type { RunJob } from "./daemon-types.js";

/** Runs a job's slot with the clients built at start: a digest through `runDigest`. */
export function createJobRunner(clients: Pick<Clients, "api" | "slack" | "email">): RunJob {
  return async (job, fireAt, context) => {
    const outcome = await runDigest(
      { team: job.team, digest: job.digest, fireAt },
      {
        api: clients.api,
        slack: clients.slack,
        email: clients.email,
        ledger: context.ledger,
        cache: context.cache,
        logger: context.logger,
        retryAt: context.retryAt,
      },
    );
    return { key: outcome.key, deliveries: outcome.deliveries };
  };
}
