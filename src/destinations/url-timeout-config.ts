import { z } from "zod";

// The section at the top of the config that a one-URL destination (Teams, the signed webhook)
// has: how long one request may take.

const DEFAULT_TIMEOUT_MS = 30_000;

/** `<kind>:` at the top of the config file, with its words: "one post to a workflow". */
export function urlTimeoutSection(oneRequest: string, sharedBy: string) {
  return z
    .strictObject({
      timeout_ms: z
        .number()
        .int()
        .min(1_000)
        .default(DEFAULT_TIMEOUT_MS)
        .describe(`How long ${oneRequest} may take before it counts as failed.`),
    })
    .default({ timeout_ms: DEFAULT_TIMEOUT_MS })
    .describe(`Settings shared by every ${sharedBy}.`);
}
