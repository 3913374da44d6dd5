import type { NewSlot, SlotKind } from "./new-slot.js";
// The ledger: what the daemon has fired, what each destination got, and the alert states. A
// narrow asynchronous interface with plain types (Dates, strings) and two stores behind it:
// SQLite (`open-ledger.ts`, one daemon per file) and PostgreSQL (`postgres-ledger.ts`, shared
// by replicas). Every change that must not race is one conditional statement in either.
// What it keeps as JSON is versioned and checked where it is read (`stored-evaluation.ts`).

import type { AlertNotification } from "../messages.js";
import type {
  Acknowledgement,
  AddedAcknowledgement,
  NewAcknowledgement,
} from "./acknowledgements.js";
import type { IncidentStore } from "./incidents.js";
import type { AddedSilence, EndedSilence, NewSilence, Silence, SilenceQuery } from "./silences.js";
import type { AlertLevel, StoredAlertResult } from "./stored-evaluation.js";

/** pending → sending → sent, or → failed (retried later, or final when no next attempt). */
export type DeliveryState = "pending" | "sending" | "sent" | "failed";

export type { NewSlot, SlotKind } from "./new-slot.js";
export type { AlertLevel } from "./stored-evaluation.js";

/** A digest or alert of a team, as slots name it. */
export interface JobRef {
  team: string;
  kind: SlotKind;
  /** The digest's or alert's name. */
  job: string;
}

/** A slot as the ledger holds it: what was recorded, and when it was finished. */
export interface Slot extends Omit<NewSlot, "destinations"> {
  createdAt: Date;
  /** When every destination was sent or finally failed; null while any is still open. */
  finishedAt: Date | null;
}

export interface Delivery {
  destination: string;
  state: DeliveryState;
  attempts: number;
  lastError: string | null;
  /**
   * When a failed delivery is retried; for one sending, when it is retried should its send never
   * end (see `ClaimOptions.retryIfUnfinished`); null otherwise, and when failed for good.
   */
  nextAttemptAt: Date | null;
  /**
   * What the destination handed back once sent (its receipt's `ref`); null before, and for a kind
   * whose ref the ledger does not keep (see `receipt-columns.ts`).
   */
  ref: string | null;
  updatedAt: Date;
  /**
   * The token of its last claim (see claimDelivery): a write that repairs the row after reading
   * it carries this, so it changes nothing if another process has claimed the send since.
   */
  claim: number;
  /** Who last claimed it for sending, and when (see claimDelivery). */
  claimedBy: string | null;
  claimedAt: Date | null;
}

export interface SlotWithDeliveries extends Slot {
  deliveries: Delivery[];
}

/** How a process claims a destination for sending (see `claimDelivery`). */
export interface ClaimOptions {
  /** Who sends, for history and for a process that finds the claim: `daemon pid 12 on web-1`. */
  owner: string;
  /**
   * How long one send may take. A claim younger than this is a send in flight, never taken for
   * a crashed one; older, its sender is gone and its post can no longer land, so it is taken over.
   */
  sendTimeoutMs: number;
  /**
   * due: pending, a failure whose retry is due, or a stale claim (the daemon). open: any failure
   * too (`run`, asked by a person). any: whatever the state, even sent or freshly claimed
   * (`run --force`).
   */
  take: "due" | "open" | "any";
  /**
   * The claim leaves the destination owed a retry, due once the send timeout has passed (the
   * instant its claim goes stale), in the same write: for a slot that no schedule plans again
   * (an acknowledgement), whose only way back to a send is `dueRetries`. A sender that stops
   * before it records an outcome then leaves the send due rather than `sending` for good.
   */
  retryIfUnfinished?: boolean;
}

/** A destination's state before a claim moved it to sending; "new" if never recorded. */
export interface PreviousAttempt {
  state: DeliveryState | "new";
  attempts: number;
  /** The `ref` of the receipt it was sent with, as `Delivery.ref`. */
  ref: string | null;
}

/** A claim won: the token later writes must carry, and the state it was taken from. */
export interface Claimed {
  claimed: true;
  token: number;
  before: PreviousAttempt;
}

/** A claim refused: the delivery as it stands (sent, another's send in flight, a later retry). */
export interface NotClaimed {
  claimed: false;
  delivery: Delivery | null;
}

export interface DeliveryReceipt {
  /**
   * What the destination handed back (a Slack post's ts, a mail's Message-ID); read back as the
   * delivery's `ref`. Stored in the column its kind has always used (see `receipt-columns.ts`).
   */
  ref?: string;
  /** What the operator must act on though it was delivered; kept as the row's `lastError`. */
  note?: string;
}

/**
 * A delivery owed an attempt now, with the slot it belongs to: a failure whose retry is due, or
 * a send claimed with `retryIfUnfinished` whose sender never finished it.
 */
export interface DueRetry {
  slot: Slot;
  destination: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  /** The row's claim token as read: giving it up is fenced by it (see Delivery.claim). */
  claim: number;
}

export interface AlertState {
  team: string;
  alert: string;
  /** What the state is about: a project id, or "team" for a team-wide alert. */
  scope: string;
  state: AlertLevel;
  /** When the alert entered this state. */
  since: Date;
  /** Consecutive breaching evaluations, for the alert's `for`. */
  breaches: number;
  lastValue: number | null;
  lastNotifiedAt: Date | null;
  /** When it started firing; null when it is not firing. */
  firedAt: Date | null;
  /** The key of the evaluation whose message announced the fire: its thread gets the rest. */
  threadKey: string | null;
  updatedAt: Date;
}

/** An alert evaluation as recorded: its slot, the states it moved to, and what to send. */
export interface NewAlertEvaluation {
  slot: NewSlot;
  alert: string;
  states: Omit<AlertState, "updatedAt">[];
  /** Each scope's outcome (the workbook's Alerts sheet reads it back). */
  results: StoredAlertResult[];
  /** What to send, rendered; null when nothing changed and nothing is sent. */
  notification: AlertNotification | null;
}

export interface AlertEvaluation {
  key: string;
  team: string;
  alert: string;
  period: { start: string; end: string };
  results: StoredAlertResult[];
  notification: AlertNotification | null;
  createdAt: Date;
}

/** A slot's run claimed by one process (see `claimSlotRun`); its token releases it. */
export interface SlotRunClaim {
  token: number;
  /** Whether it was taken from a holder that never released it (died, or stalled). */
  takenOver: boolean;
}

/** Where the ledger lives and whether it can be used: for messages and `/readyz`. */
export interface StoreHealth {
  /** Where the ledger lives, for messages: a file, or a database without its password. */
  readonly location: string;
  /**
   * Whether several daemons may share this ledger (PostgreSQL): each then claims what it runs,
   * and no daemon holds the ledger alone. False for SQLite: one daemon per file.
   */
  readonly shared: boolean;
  /** Whether the file at `location` is still the one opened: a problem in words, or null. */
  fileProblem(): string | null;
  /** Whether the store answers now: null, or what is wrong in words (for `/readyz`). */
  reachable(): Promise<string | null>;
  close(): Promise<void>;
}

/** Slots: what each fire owes, the claim on its run, when a job was first seen, the history. */
export interface SlotLog {
  /** Records a slot and its destinations; idempotent. True when the slot is new. */
  recordSlot(slot: NewSlot): Promise<boolean>;
  /** A slot with each destination's delivery, or null. */
  getSlot(key: string): Promise<SlotWithDeliveries | null>;
  /** True when the slot exists and each destination is sent or failed for good. */
  isSlotDelivered(key: string): Promise<boolean>;

  /**
   * Claims the run of a slot (fetching, rendering, then delivering) for `owner`, in one
   * conditional write: won when nobody holds it, or its holder's claim is older than
   * `expiryMs` (that process died or stalled). Replicas that plan the same fire thus fetch
   * and render it once; the deliveries keep their own claims (`claimDelivery`).
   */
  claimSlotRun(key: string, owner: string, expiryMs: number): Promise<SlotRunClaim | null>;
  /** Lets the run's claim go (its run ended); a claim taken over since is left alone. */
  releaseSlotRun(key: string, claim: SlotRunClaim): Promise<void>;

  /**
   * When the ledger first saw the job: `at`, recorded, the first time a job is asked about;
   * the instant recorded then ever after. Fires before it are not "skipped": the job did not
   * exist yet (a fresh deployment, a job added to the config).
   */
  jobFirstSeen(job: JobRef, at: Date): Promise<Date>;

  /** Recent slots, newest fire first, with each destination's state, attempts and last error. */
  history(query: { team?: string; limit: number }): Promise<SlotWithDeliveries[]>;
}

/** Deliveries: each destination's claim, its state, tries and parts, and the retries due. */
export interface DeliveryLog {
  /**
   * Claims a destination for sending, in one conditional write: it moves to sending (attempt
   * counted, claimant and time recorded, claim token raised) only if `options` allow taking it
   * from the state it is in. The only way in to a send, so two processes reaching the same send
   * at once cannot both win (there is no unclaimed "begin attempt": tests build one from this).
   */
  claimDelivery(
    key: string,
    destination: string,
    options: ClaimOptions,
  ): Promise<Claimed | NotClaimed>;
  /** Whether `claim` is still the destination's claim (nobody took the send over since). */
  holdsClaim(key: string, destination: string, claim: number): Promise<boolean>;
  /**
   * Records a delivery as sent, with what the destination handed back. With `claim`, only if
   * that claim is still the destination's (a sender whose claim was taken over writes nothing).
   * False when nothing was written: the claim was lost.
   */
  markSent(
    key: string,
    destination: string,
    receipt: DeliveryReceipt,
    claim?: number,
  ): Promise<boolean>;
  /**
   * Records a failed attempt; `nextAttemptAt` null means it is given up (final). Fenced as
   * markSent, and false as markSent; a destination already sent is never undone.
   */
  markFailed(
    key: string,
    destination: string,
    error: string,
    nextAttemptAt: Date | null,
    claim?: number,
  ): Promise<boolean>;
  /** The parts of a delivery done so far (`post`, `thread 1`, `upload`), each with its reference. */
  partsDone(key: string, destination: string): Promise<Map<string, string | null>>;
  /** Records one part of a delivery as done (idempotent). */
  recordPart(key: string, destination: string, part: string, ref: string | null): Promise<void>;
  /** Forgets the parts done: a deliberate resend (`run --force`) records its own anew. */
  forgetParts(key: string, destination: string): Promise<void>;
  /**
   * Deliveries whose next attempt is at or before `now`, oldest first: failures, and sends
   * claimed with `retryIfUnfinished` still unfinished then (their claim has gone stale).
   */
  dueRetries(now: Date): Promise<DueRetry[]>;
}

/** Alert states and evaluations, recorded with the notification each decided on. */
export interface AlertStateLog {
  /** The last state of every scope of one alert. */
  alertStates(team: string, alert: string): Promise<AlertState[]>;
  /** Every scope of the team's alerts that is firing now (warn or critical). */
  firingAlerts(team: string): Promise<AlertState[]>;
  /**
   * Records the evaluation's slot, the new states and the notification in one transaction,
   * so a crash leaves either all or none. False, changing nothing, when the slot exists: that
   * evaluation was done before (by this process or another), and only its stored
   * notification may still need sending.
   */
  recordAlertEvaluation(evaluation: NewAlertEvaluation): Promise<boolean>;
  getAlertEvaluation(key: string): Promise<AlertEvaluation | null>;
  /** A team's evaluations whose period lies within `from`..`to` (ISO dates), oldest first. */
  alertEvaluations(query: { team: string; from: string; to: string }): Promise<AlertEvaluation[]>;
}

/** What holds an alert's messages back: silences and acknowledgements from Slack's buttons. */
export interface AlertHolds {
  /**
   * Adds a silence, once per `key` (the action that asked for it): a repeat of the key changes
   * nothing and returns the stored one with `created` false, whichever process asks.
   */
  addSilence(silence: NewSilence, at: Date): Promise<AddedSilence>;
  /** Silences, oldest start first: a team's, and only those in force at `activeAt` if given. */
  silences(query: SilenceQuery): Promise<Silence[]>;
  /** Ends a silence early, once: `already_over` when it was ended or had run out by `at`. */
  endSilence(id: number, by: string, at: Date): Promise<EndedSilence>;

  /**
   * Acknowledges a fire, once per `key` (the action that asked for it): a repeat of the key
   * changes nothing and returns the stored one with `created` false, whichever process asks.
   */
  acknowledge(ack: NewAcknowledgement, at: Date): Promise<AddedAcknowledgement>;
  /** The acknowledgements of an alert's fires that no escalation has cleared, oldest first. */
  acknowledgements(team: string, alert: string): Promise<Acknowledgement[]>;
  /** The acknowledgement stored under the action `key`, cleared or not; null if none. */
  acknowledgement(key: string): Promise<Acknowledgement | null>;
  /** Clears the standing acknowledgements of these fires (a new escalation); how many. */
  clearAcknowledgements(
    team: string,
    alert: string,
    fireKeys: readonly string[],
    at: Date,
  ): Promise<number>;
}

/** One daemon per SQLite file; a shared ledger has none. */
export interface LedgerLease {
  /**
   * Claims the ledger for this daemon; throws LedgerLockedError while another live daemon
   * holds it. One-off commands (history, run) never need the lease. A shared ledger has no
   * lease: every replica may run, and the claims above share the work.
   */
  acquireDaemonLease(owner: string): Promise<void>;
  /** Keeps the lease alive (every tick); throws LedgerLockedError if it was taken over. */
  renewLease(): Promise<void>;
  /** Gives the lease up (clean shutdown). */
  releaseLease(): Promise<void>;
}

/**
 * The ledger: every narrow store above in one place, as SQLite (`state/sqlite/`) and PostgreSQL
 * (`state/postgres/`) implement it. A user takes only the part it needs.
 */
export interface Ledger
  extends StoreHealth,
    SlotLog,
    DeliveryLog,
    AlertStateLog,
    AlertHolds,
    LedgerLease,
    IncidentStore {}

/** A narrow store whose calls answer at once: the same methods, without promises. */
export type Sync<Store> = {
  [K in keyof Store]: Store[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => R
    : Store[K];
};

/**
 * A ledger whose calls answer at once (SQLite through better-sqlite3). `asyncLedger` turns one
 * into a Ledger.
 */
export type SyncLedger = Sync<Ledger>;
