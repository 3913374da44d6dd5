// A destination's id within a slot, as the ledger records it: `slack:C0123`, `email:a@x,b@y`.
// One definition, read by the digest's and the alert's deliveries alike.

export const slackDestinationId = (channel: string) => `slack:${channel}`;
export const emailDestinationId = (to: readonly string[]) => `email:${to.join(",")}`;
