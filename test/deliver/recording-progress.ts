import type { DeliveryProgress } from "../../src/deliver/types.js";

/** Progress as the ledger keeps it: the parts done, each recorded once, readable by the test. */
export function recordingProgress(): DeliveryProgress & { parts: Map<string, string | null> } {
  const parts = new Map<string, string | null>();
  return {
    parts,
    done: parts,
    async record(part, ref) {
      parts.set(part, ref);
    },
  };
}
