// An email destination's id within a slot, as the ledger records it: `email:a@x,b@y`.
// One definition, read by the digest's and the alert's deliveries alike.

export const emailDestinationId = (to: readonly string[]) => `email:${to.join(",")}`;
