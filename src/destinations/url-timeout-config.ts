import * as z from "zod";

// The section at the top of the config that a one-URL destination (Teams, the signed webhook)
// has: how long one request may take.

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 600_000;

/** `<kind>:` at the top of the config file, with its words: "one post to a workflow". */
export function urlTimeoutSection(oneRequest: string, sharedBy: string) {
  return z
    .strictObject({
      timeout_ms: z
        .number()
        .int()
        .min(1_000)
        // A timer past 2^31-1 ms fires at once; a post waited on for over 10 minutes is gone.
        .max(MAX_TIMEOUT_MS)
        .default(DEFAULT_TIMEOUT_MS)
        .describe(
          `How long ${oneRequest} may take before it counts as failed, in milliseconds: at most 600000 (10 minutes).`,
        ),
    })
    .default({ timeout_ms: DEFAULT_TIMEOUT_MS })
    .describe(`Settings shared by every ${sharedBy}.`);
}
