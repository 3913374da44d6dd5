import type { AlertConfig } from "../config/types.js";
import type { DeliveryResult, RetryAt } from "../deliver/deliver-all.js";
import type { RequestCache } from "../insights/collect-insights.js";
import type { Logger } from "../logger.js";
import type { DaemonMetrics } from "../ops/metrics.js";
import type { DigestLedger } from "../pipeline/digest/digest-types.js";
import type { DeliveryLog, LedgerLease, SlotLog, StoreHealth } from "../state/ledger.js";
import type { IncidentStep } from "./incident-fires.js";
import type { ScheduledJob } from "./jobs.js";

// The daemon's collaborators and surface (`daemon.ts` implements it).

export interface RunContext {
  /** The ledger, narrowed to the destinations due in this run. */
  ledger: DigestLedger;
  /** Shared by every run started in one tick. */
  cache: RequestCache;
  logger: Logger;
  retryAt: RetryAt;
}

export interface SlotRun {
  key: string;
  deliveries: DeliveryResult[];
}

/**
 * An acknowledgement's recorded slot sent again, for its alert as configured now (see
 * `pipeline/alert/acknowledge-stage.ts`): handed in by the daemon, which holds the clients.
 */
export interface AcknowledgementResend {
  /** Whether a new escalation of the fire cleared the acknowledgement since: not sent then. */
  cleared(key: string): Promise<boolean>;
  /** The destinations the alert as configured now passes the slot's acknowledgement on to. */
  destinations(key: string, alert: AlertConfig): readonly string[];
  /** Sends the slot again to those of `recorded` the alert still has, and to no other. */
  resend(
    key: string,
    alert: AlertConfig,
    recorded: readonly string[],
    context: Omit<RunContext, "cache">,
  ): Promise<void>;
}

/** Runs one slot of a job for its fire instant (`scheduler/run-slot.ts` runs digests). */
export type RunSlot = (job: ScheduledJob, fireAt: Date, context: RunContext) => Promise<SlotRun>;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the daemon keeps in the ledger: slots, their deliveries, its lease, the store's health. */
export type DaemonLedger = StoreHealth & SlotLog & DeliveryLog & LedgerLease;

export interface DaemonOptions {
  jobs: readonly ScheduledJob[];
  ledger: DaemonLedger;
  runSlot: RunSlot;
  logger: Logger;
  metrics?: DaemonMetrics | null;
  now?: () => Date;
  /**
   * The longest sleep between ticks (default 5 s). The scheduler wakes for the next fire or
   * retry it knows of, and at least this often, to notice a clock jump, a suspend, or a retry
   * another process (`run`) left in the ledger.
   */
  tickMs?: number;
  /** How long one send may take (default SEND_TIMEOUT_MS): see `Ledger.claimDelivery`. */
  sendTimeoutMs?: number;
  /** Slot runs at once at most (see `SlotRunsOptions.maxInFlight`). */
  maxRunsInFlight?: number;
  /** Who this daemon is, on its claims (default `daemon pid N`). */
  owner?: string;
  /** Waits before each retry; the last repeats (default 1, 5, 15, 60 minutes). */
  retryDelaysMs?: readonly number[];
  timers?: Timers;
  /** What runs after a tick's alert evaluations (incidents); absent or null: nothing. */
  incidents?: IncidentStep | null;
  /** What sends an acknowledgement's slot again when its retry is due; absent: left due. */
  acknowledgements?: AcknowledgementResend | null;
  /** The daemon cannot go on (another daemon took its ledger over); the caller shuts down. */
  onFatal?: (error: Error) => void;
}

export interface DaemonStatus {
  lastTickAt: Date | null;
  /** Keys of the slots running now. */
  running: string[];
  stopping: boolean;
}

export interface Daemon {
  /** Ticks now, then at each next fire or retry, at least every `tickMs`. */
  start(): void;
  /**
   * One tick: plans every job and starts what is due (runs go on in the background). Resolves
   * once planning is done; it yields to the event loop on the way.
   */
  tick(): Promise<void>;
  /** Resolves once no slot is running. */
  idle(): Promise<void>;
  /**
   * Runs a slot asked for from outside the schedule (`/insights digest`) as one of the daemon's
   * own: in `running`, counted in flight, and waited for by `stop` within its grace. Null, and
   * `work` not started, once the daemon is stopping.
   */
  runUnscheduled<T>(key: string, work: () => Promise<T>): Promise<T> | null;
  /** Starts nothing more; waits up to `graceMs` for running slots; resolves to the unfinished keys. */
  stop(graceMs: number): Promise<string[]>;
  /** After a config reload: the new job list (running slots finish as they are). */
  replaceJobs(jobs: readonly ScheduledJob[]): void;
  status(): DaemonStatus;
}
