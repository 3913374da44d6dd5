import type { AlertRule } from "../alerts/types.js";
import type { ProjectSelection } from "../insights/types.js";
import type { CompareTo, PeriodKind, Weekday } from "../periods/types.js";
import type { Secret } from "../secret.js";

/**
 * The config every other part of the code sees: camelCase, every default filled, every
 * cross-field rule checked, secrets wrapped. Nothing here is optional except what may
 * really be absent (a destination, a credential not needed by any destination).
 */
export interface ResolvedConfig {
  /** Where the config was read from, for messages. */
  source: string;
  api: {
    url: string;
    key: Secret;
    concurrency: number;
    timeoutMs: number;
    maxAttempts: number;
    maxResponseBytes: number;
  };
  slack: { token: Secret | null; apiUrl: string | null };
  email: { smtpUrl: Secret | null; from: string; maxBytes: number };
  /** `sendTimeoutMs`: how long one delivery may take (see `Ledger.claimDelivery`). */
  /** The ledger: an SQLite file, or with `url` a PostgreSQL database (then `path` is unused). */
  state: { path: string; url: Secret | null; sendTimeoutMs: number };
  /** The day store; absent in configs built by hand (then 48 h). */
  history?: { settleAfterMs: number };
  server: { port: number; host: string };
  teams: Team[];
}

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
}

/** A configured project: what is fetched, and who owns it. */
export interface ProjectConfig extends ProjectSelection {
  /** Slack user (`U…`) or group (`S…`) ids and email addresses, told of bad news about it. */
  owners: string[];
}

export interface DigestConfig {
  name: string;
  schedule: string;
  period: PeriodKind;
  compareTo: CompareTo;
  catchUpMs: number;
  /** Smallest rate change that is news, in percentage points. */
  minChangePp: number;
  slack: { channel: string; attachXlsx: boolean } | null;
  email: { to: string[]; attachXlsx: boolean } | null;
}

export type { AlertMetric } from "../alerts/types.js";

/** An alert as configured: the engine's rule, and when, over what and to whom it runs. */
export interface AlertConfig extends AlertRule {
  window: PeriodKind;
  schedule: string;
  scope: "projects" | "team" | "both";
  catchUpMs: number;
  slack: { channel: string; mention: string | null } | null;
  email: { to: string[] } | null;
}

/** The config of a command that never calls the insights API: all of it but `api`. */
export type ConfigWithoutApi = Omit<ResolvedConfig, "api">;
