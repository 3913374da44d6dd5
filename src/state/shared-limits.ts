/**
 * Limits that replicas keep together, counted in the ledger's database: the insights API's
 * requests a minute, and Slack's per-method and per-channel limits with the holds its 429s put
 * on them. Each limit is a budget, named by its caller ("insights-api", "slack chat.postMessage
 * C0123"). A process alone keeps its limits in memory and needs none of this.
 */
export interface SharedLimits {
  /**
   * Grants up to `wanted` of `limit` turns of `budget` in any `windowS` whole seconds (61,
   * any 60 s, unless given; at most 62) at `atMs`, to be used at once; when it grants none, how long to wait, a hold's
   * remainder included.
   */
  take(
    budget: string,
    wanted: number,
    limit: number,
    atMs: number,
    windowS?: number,
  ): Promise<{ granted: number; waitMs: number }>;
  /** No replica gets a turn of `budget` before `untilMs` (epoch ms): a refusal's Retry-After. */
  hold(budget: string, untilMs: number): Promise<void>;
  close(): Promise<void>;
}
