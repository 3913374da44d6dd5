// The states of the daemon's Socket Mode connection and what it reports as it goes: declared
// here, below the Slack app, so the ops server's metrics can name them without importing it.

/** Where the connection stands. `refused` and `failed` are final: a restart is needed. */
export type SlackSocketState =
  | "connecting"
  | "connected"
  | "reconnecting"
  | "refused"
  | "failed"
  | "stopped";

export const SLACK_SOCKET_STATES: readonly SlackSocketState[] = [
  "connecting",
  "connected",
  "reconnecting",
  "refused",
  "failed",
  "stopped",
];

/** What the connection reports as it goes; the daemon's metrics fit. */
export interface SlackSocketMetrics {
  socketState(state: SlackSocketState): void;
  socketConnected(): void;
  socketEnvelope(type: string, result: "acked" | "ack_failed", ackMs: number): void;
}
