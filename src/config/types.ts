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
  state: { path: string; sendTimeoutMs: number };
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

export type ProjectConfig = ProjectSelection;

export interface DigestConfig {
  name: string;
  schedule: string;
  period: PeriodKind;
  compareTo: CompareTo;
  catchUpMs: number;
  slack: { channel: string; attachXlsx: boolean } | null;
  email: { to: string[]; attachXlsx: boolean } | null;
}

export type AlertMetric =
  | "flaky_rate"
  | "test_fail_rate"
  | "run_pass_rate"
  | "test_pass_rate"
  | "runs";

export interface AlertConfig {
  name: string;
  metric: AlertMetric;
  window: PeriodKind;
  schedule: string;
  /** Thresholds as written: percent for rates, a count for runs. */
  warnAt: number;
  criticalAt: number;
  clearAt: number;
  minTests: number;
  /** The Wilson interval's confidence, or null (`off`) to compare the raw value. */
  confidence: number | null;
  /** Consecutive breaching evaluations before it fires. */
  forEvaluations: number;
  repeatEveryMs: number | null;
  scope: "projects" | "team" | "both";
  onNoData: "keep" | "resolve" | "fire";
  catchUpMs: number;
  slack: { channel: string; mention: string | null } | null;
  email: { to: string[] } | null;
}

/** The config of a command that never calls the insights API: all of it but `api`. */
export type ConfigWithoutApi = Omit<ResolvedConfig, "api">;
