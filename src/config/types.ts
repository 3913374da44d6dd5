import type { AlertRule } from "../alerts/types.js";
import type {
  AlertTargetOf,
  DestinationKind,
  DigestTargetOf,
  GlobalOf,
} from "../destinations/registry.js";
import type { ProjectSelection } from "../insights/types.js";
import type { Retention } from "../periods/retention.js";
import type { CompareTo, PeriodKind, Weekday } from "../periods/types.js";
import type { Secret } from "../secret.js";

/**
 * The config every other part of the code sees: camelCase, every default filled, every
 * cross-field rule checked, secrets wrapped. Nothing here is optional except what may
 * really be absent (a destination, a credential not needed by any destination).
 */
export interface ResolvedConfig extends DestinationGlobals {
  /** Where the config was read from, for messages. */
  source: string;
  api: {
    url: string;
    key: Secret;
    concurrency: number;
    timeoutMs: number;
    maxAttempts: number;
    maxResponseBytes: number;
    /** Requests in any 60 s; null: as the API's X-RateLimit-Limit says, else none. */
    maxRequestsPerMinute: number | null;
  };
  /** `sendTimeoutMs`: how long one delivery may take (see `Ledger.claimDelivery`). */
  /** The ledger: an SQLite file, or with `url` a PostgreSQL database (then `path` is unused). */
  /** `maxSlotsInFlight`: slot runs at once per process; the rest wait in fire order. */
  state: { path: string; url: Secret | null; sendTimeoutMs: number; maxSlotsInFlight: number };
  /** The day store; absent in configs built by hand (then 48 h, days kept for ever, no prefetch). */
  history?: { settleAfterMs: number; keep: Retention; prefetch: PrefetchConfig | null };
  server: { port: number; host: string };
  /** `incidents:`; null when off, absent in configs built by hand (off). */
  incidents?: IncidentsConfig | null;
  teams: Team[];
}

/** `history.prefetch`: how far ahead, and at what pace (null: a quarter of the API budget, else 60). */
export interface PrefetchConfig {
  aheadMs: number;
  maxRequestsPerMinute: number | null;
}

/** Where incidents go and how many projects firing together make one. */
export interface IncidentsConfig {
  minProjects: number;
  slack: { channel: string } | null;
  /** Where else an incident goes: an alert's destination of each other kind; null: not there. */
  email: AlertTargetOf<"email"> | null;
  msteams: AlertTargetOf<"msteams"> | null;
  webhook: AlertTargetOf<"webhook"> | null;
  pagerduty: AlertTargetOf<"pagerduty"> | null;
}

/** Each destination kind's shared settings (`slack`, `email`), resolved: one field per kind. */
export type DestinationGlobals = { [K in DestinationKind]: GlobalOf<K> };

/** A digest's destinations: one field per kind, null where the digest has none of that kind. */
export type DigestDestinations = { [K in DestinationKind]: DigestTargetOf<K> | null };

/** An alert's destinations: one field per kind, null where the alert has none of that kind. */
export type AlertDestinations = { [K in DestinationKind]: AlertTargetOf<K> | null };

/** Luxon weekday numbers: 1 = Monday … 7 = Sunday. */
export type { Weekday } from "../periods/types.js";

export interface Team {
  name: string;
  title: string;
  timezone: string;
  weekStartsOn: Weekday;
  /** Template with {project_id}, or null. */
  dashboardUrl: string | null;
  projects: ProjectConfig[];
  digests: DigestConfig[];
  alerts: AlertConfig[];
  /**
   * Who may acknowledge and snooze the team's alerts from Slack: user (`U…`) and user group
   * (`S…`) ids; null lets anyone in the channel.
   */
  alertActors: string[] | null;
}

/** A configured project: what is fetched, and who owns it. */
export interface ProjectConfig extends ProjectSelection {
  /** Slack user (`U…`) or group (`S…`) ids and email addresses, told of bad news about it. */
  owners: string[];
}

export interface DigestConfig extends DigestDestinations {
  name: string;
  schedule: string;
  period: PeriodKind;
  compareTo: CompareTo;
  catchUpMs: number;
  /** Smallest rate change that is news, in percentage points. */
  minChangePp: number;
  /** Trend charts, over `windowDays` days ending with the period; null: none (left out of the config: on for weekly and longer digests). */
  charts: { windowDays: number } | null;
}

export type { AlertMetric } from "../alerts/types.js";

/** An alert as configured: the engine's rule, and when, over what and to whom it runs. */
export interface AlertConfig extends AlertRule, AlertDestinations {
  window: PeriodKind;
  schedule: string;
  scope: "projects" | "team" | "both";
  catchUpMs: number;
  /** A fire's first message carries the fired scope's chart (the charted rates: alert-metrics.ts). */
  chart: boolean;
}

/** The config of a command that never calls the insights API: all of it but `api`. */
export type ConfigWithoutApi = Omit<ResolvedConfig, "api">;
