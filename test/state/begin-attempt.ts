import type { ClaimOptions, DeliveryLog, PreviousAttempt } from "../../src/state/ledger.js";

// For tests that play "a process attempts it": a claim on whatever is open, whoever is sending
// it. The production Ledger offers no such thing; every sender claims by its own rules.

const ANY_OPEN: ClaimOptions = { owner: "unnamed", sendTimeoutMs: 0, take: "open" };

/** Moves a destination to sending (attempt counted) and returns its state before. */
export async function beginAttempt(
  ledger: DeliveryLog,
  key: string,
  destination: string,
): Promise<PreviousAttempt> {
  const claim = await ledger.claimDelivery(key, destination, ANY_OPEN);
  if (claim.claimed) return claim.before;
  const { state = "new", attempts = 0, ref = null } = claim.delivery ?? {};
  return { state, attempts, ref };
}
