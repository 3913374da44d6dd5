import type { ResolvedConfig } from "../config/types.js";
import { DESTINATION_KINDS } from "../destinations/config-registry.js";
import { Secret } from "../secret.js";

/**
 * The sections of a reloaded config that a running daemon does not apply: its clients, ledger
 * and ops server were built at start. Teams, projects, digests and schedules apply at once.
 */
export function restartOnlyChanges(before: ResolvedConfig, after: ResolvedConfig): string[] {
  const sections: Array<[string, (c: ResolvedConfig) => unknown[]]> = [
    [
      "api",
      (c) => [
        c.api.url,
        reveal(c.api.key),
        c.api.concurrency,
        c.api.timeoutMs,
        c.api.maxAttempts,
        c.api.maxResponseBytes,
      ],
    ],
    // Each destination's shared settings (`slack`, `email`, …): its clients were built from them.
    ...DESTINATION_KINDS.map((kind): [string, (c: ResolvedConfig) => unknown[]] => [
      kind,
      (c) => Object.values(c[kind]).map(revealed),
    ]),
    ["state", (c) => [c.state.path, reveal(c.state.url), c.state.sendTimeoutMs]],
    ["server", (c) => [c.server.host, c.server.port]],
    // The day store's client and the prefetch were built at start with these.
    [
      "history",
      (c) => [
        c.history?.settleAfterMs,
        JSON.stringify(c.history?.keep),
        c.history?.prefetch === null,
        c.history?.prefetch?.aheadMs,
        c.history?.prefetch?.maxRequestsPerMinute,
      ],
    ],
    // The incident step was built at start with its channel and threshold.
    [
      "incidents",
      (c) => [
        c.incidents?.minProjects,
        c.incidents?.slack?.channel,
        c.incidents?.email?.to,
        c.incidents?.msteams?.destination,
        c.incidents?.webhook?.destination,
        c.incidents?.pagerduty?.destination,
      ],
    ],
  ];
  return sections
    .filter(([, values]) => {
      const [a, b] = [values(before), values(after)];
      return a.some((value, i) => value !== b[i]);
    })
    .map(([name]) => name);
}

// Compared, never printed: a changed token is reported by section name only.
function revealed(value: unknown): unknown {
  return value instanceof Secret ? value.reveal() : value;
}

function reveal(secret: Secret | null): string | null {
  return secret?.reveal() ?? null;
}
