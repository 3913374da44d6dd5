// A Slack destination's id within a slot, as the ledger records it: `slack:C0123`.
// One definition, read by the digest's and the alert's deliveries alike.

export const slackDestinationId = (channel: string) => `slack:${channel}`;
