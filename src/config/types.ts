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
  };
  slack: { token: Secret | null; apiUrl: string | null };
  email: { smtpUrl: Secret | null; from: string; maxBytes: number };
  state: { path: string };
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
  /** Smallest rate change that is news, in percentage points. */
  minChangePp: number;
  slack: { channel: string; attachXlsx: boolean } | null;
  email: { to: string[]; attachXlsx: boolean } | null;
}

export interface AlertConfig {
  name: string;
  metric: "flaky_rate";
  window: PeriodKind;
  schedule: string;
  /** Thresholds in percent, as written. */
  warnAt: number;
  criticalAt: number;
  clearBelow: number;
  minTests: number;
  catchUpMs: number;
  slack: { channel: string; mention: string | null } | null;
  email: { to: string[] } | null;
}
