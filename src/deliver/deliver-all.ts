import { hasLandingVerdict, type ReporterError, worthRetrying } from "../errors.js";
import type { Logger } from "../logger.js";
import type { DeliveryProgress } from "./types.js";

// Sends a slot's deliveries, each on its own: one failing destination never holds back the
// others. With a ledger, each send is recorded before and after, so a restart neither repeats
// a delivery that went out nor forgets one that did not.

/** What a destination hands back once it has delivered. */
export interface Receipt {
  /** What the destination hands back to find the delivery by: a Slack post's ts, a mail's Message-ID. */
  ref?: string;
  /** Delivered, but not wholly: e.g. the SMTP server refused some recipients. */
  warning?: string;
  /**
   * Delivered in full, with something the operator must act on (a project the digest left
   * out, and how to fix it): kept with the delivery, so `history` shows it.
   */
  note?: string;
}

export interface DeliveryJob {
  /** Stable within a slot: `slack:C0123`, `email:qa@example.com`. */
  id: string;
  /** Sends what `progress` does not have done yet, recording each part as it goes. */
  send(progress: DeliveryProgress): Promise<Receipt>;
  /**
   * After an interrupted attempt (a crash mid-send): find the earlier delivery, if it went out,
   * and finish the parts of it that `progress` does not have done.
   */
  recover?(progress: DeliveryProgress): Promise<Receipt | null>;
}

/** `waiting`: the ledger says not now (a retry later, given up, or another process sends it). */
export type DeliveryStatus = "sent" | "recovered" | "already-sent" | "waiting" | "failed";

/**
 * A delivery's outcome as logs and commands say it: what went to an outbox was written there,
 * never "sent", so no one takes a dry run for a delivery.
 */
export function deliveryWord(status: DeliveryStatus, outbox: boolean): string {
  if (!outbox) return status;
  if (status === "sent") return "written to the outbox";
  if (status === "already-sent") return "already written";
  return status;
}

export interface DeliveryResult {
  id: string;
  status: DeliveryStatus;
  receipt?: Receipt;
  error?: Error;
}

/** An attempt begun (the destination claimed), or why not: `sent`, or `later` (leave it alone). */
export interface Attempt {
  /** The state the destination was claimed from; or, not claimed, `sent` or `later`. */
  state: "new" | "pending" | "sending" | "sent" | "failed" | "later";
  attempts: number;
  /** The claim's token, which this attempt's writes carry (see `Ledger.claimDelivery`). */
  claim?: number;
  /** A deliberate resend (`run --force`): no looking for an earlier delivery first. */
  resend?: boolean;
  /**
   * Whether the ledger cannot know if this slot went out before it was recorded here (the
   * ledger is newer than the slot: lost, replaced, restored): look before a first attempt too.
   * Absent: look, as no ledger vouches for the destination.
   */
  lookFirst?: boolean;
  /**
   * When the attempt must be over (`state.send_timeout` after its claim): past it another
   * process may take the send over, so the attempt is abandoned there, its outcome unknown.
   */
  sendBy?: Date;
}

/** The part of the ledger deliveries need; `state/` implements it. */
export interface DeliveryLedger {
  /**
   * Claims the destination for this attempt; returns the state it was claimed from, or `sent`
   * or `later` when this run must leave it alone (and the row untouched).
   */
  beginAttempt(key: string, id: string): Promise<Attempt>;
  /** False when nothing was written: the claim was taken over (see `Ledger.markSent`). */
  markSent(key: string, id: string, receipt: Receipt, claim?: number): Promise<boolean>;
  markFailed(
    key: string,
    id: string,
    error: string,
    nextAttemptAt: Date | null,
    claim?: number,
  ): Promise<boolean>;
  /** The parts of the delivery done so far (see DeliveryProgress). */
  partsDone?(key: string, id: string): Promise<ReadonlyMap<string, string | null>>;
  recordPart?(key: string, id: string, part: string, ref: string | null): Promise<void>;
  /** Forgets the parts done, for a deliberate resend that records its own. */
  forgetParts?(key: string, id: string): Promise<void>;
  /** Whether the claim is still this attempt's; absent, it always is. */
  holdsClaim?(key: string, id: string, claim: number): Promise<boolean>;
}

/**
 * When to try again after this many failed attempts, or null to give up: the daemon's is null
 * once the slot's deadline would be passed. Never sooner than `notBefore` when given (a send
 * that may have landed is looked for once it has landed or never will): the schedule honours
 * it, so that it can also give up when the floor falls past its deadline; deliverAll records
 * the answer as it is (slotRetryAt and firstRetryAt both clamp in nextAttemptAt).
 */
export type RetryAt = (attempts: number, notBefore?: Date) => Date | null;

export interface DeliverOptions {
  ledger: DeliveryLedger | null;
  logger: Logger;
  /** When to try again (see RetryAt); absent, give up at once. */
  retryAt?: RetryAt;
}

/** Delivers every job of the slot `key`; never throws for a destination's failure. */
export async function deliverAll(
  key: string,
  jobs: readonly DeliveryJob[],
  options: DeliverOptions,
): Promise<DeliveryResult[]> {
  return Promise.all(jobs.map((job) => deliverOne(key, job, options)));
}

async function deliverOne(
  key: string,
  job: DeliveryJob,
  options: DeliverOptions,
): Promise<DeliveryResult> {
  const { ledger, logger } = options;
  const before = (await ledger?.beginAttempt(key, job.id)) ?? { state: "new", attempts: 0 };
  if (before.state === "sent") return { id: job.id, status: "already-sent" };
  if (before.state === "later") return { id: job.id, status: "waiting" };
  const claim = before.claim;
  // A write refused by the fencing token: this process stalled past its claim (paused, cut
  // off from the database) and another took the send over; what that one records stands.
  const recorded = async (written: Promise<boolean> | undefined) =>
    (await written) !== false || claim === undefined;
  const lostClaim = (): DeliveryResult => {
    logger.warn(
      { slot: key, destination: job.id, claim },
      "lost the claim: another process took this delivery over; this one records nothing",
    );
    return { id: job.id, status: "waiting" };
  };
  // A deliberate resend starts over, recording its own parts as any send does (a crash in it
  // then goes on from them); any other attempt goes on from the parts already done.
  if (before.resend) await ledger?.forgetParts?.(key, job.id);
  // A searchable destination's send is capped at its claim's end: past it, another process
  // may look and send. One that cannot be searched is left to finish: abandoning a mail that
  // the server may yet take would only add the one extra send ADR 0005 allows for a crash.
  const deadline = attemptDeadline(key, job.id, job.recover ? before.sendBy : undefined);
  const progress = await progressOf(key, job.id, claim, ledger, deadline.signal);
  try {
    // Look only where the ledger cannot say whether the post went out: after a crash mid-send
    // (a claim taken over only once its post could no longer land), after a failure that may
    // have landed all the same, and for a slot older than the ledger (deleted, replaced,
    // restored). A first attempt in steady state does not look: at thousands of slots a
    // minute, a history read each would spend Slack's per-method limits for nothing.
    const outcomeUnknown = before.state === "sending" || progress.done.has(OUTCOME_UNKNOWN);
    if (job.recover && !before.resend && (outcomeUnknown || (before.lookFirst ?? true))) {
      const found = await deadline.within(job.recover(progress));
      if (found) {
        if (!(await recorded(ledger?.markSent(key, job.id, found, claim)))) return lostClaim();
        logger.info(
          { slot: key, destination: job.id },
          "found the earlier delivery after a restart; not sending again",
        );
        return { id: job.id, status: "recovered", receipt: found };
      }
    }
    // Looking may have taken a while: a send taken over meanwhile is not sent a second time.
    if (!(await progress.stillOurs())) return lostClaim();
    const receipt = await deadline.within(job.send(progress));
    if (!(await recorded(ledger?.markSent(key, job.id, receipt, claim)))) return lostClaim();
    // The adapter has logged the detail; the result carries it to the command or daemon.
    if (receipt.warning) {
      return { id: job.id, status: "sent", receipt, error: new Error(receipt.warning) };
    }
    return { id: job.id, status: "sent", receipt };
  } catch (error) {
    // A send that failed after its main message landed (a thread reply or an upload did not)
    // is a failure like any other: its parts done are in the ledger, so the retry sends only
    // the missing ones, and `history` shows the error that names them until they are there.
    const attempts = before.attempts + 1;
    // The sender's verdict first: a refused token or our own malformed message is given up now.
    const retry = worthRetrying(error);
    // A send that may have landed (a timeout, a 5xx, abandoned at send_timeout) is looked for
    // in the channel by the next attempt: not before send_timeout has passed since this one
    // began, when whatever it sent has landed or never will.
    // The retry schedule is told, so it never sets a retry past the slot's deadline.
    const lookAfter = job.recover && mayHaveLanded(error) ? before.sendBy : undefined;
    // Kept with the delivery's parts, so the next attempt knows to look first.
    if (job.recover && mayHaveLanded(error)) {
      await ledger?.recordPart?.(key, job.id, OUTCOME_UNKNOWN, null);
    }
    const nextAttemptAt = retry ? (options.retryAt?.(attempts, lookAfter) ?? null) : null;
    const failed = ledger?.markFailed(key, job.id, messageOf(error), nextAttemptAt, claim);
    if (!(await recorded(failed))) return lostClaim();
    logger.error(
      {
        slot: key,
        destination: job.id,
        attempts,
        retryAt: nextAttemptAt?.toISOString() ?? null,
        ...(retry ? {} : { retry: "not worth retrying" }),
        ...(retry && options.retryAt && !nextAttemptAt
          ? { retry: "gave up: no retry is left before the slot's deadline" }
          : {}),
        err: messageOf(error),
      },
      "delivery failed",
    );
    return { id: job.id, status: "failed", error: asError(error) };
  } finally {
    deadline.clear();
  }
}

/**
 * An attempt's end at `sendBy`: `within` gives up waiting on the send there (rejecting with
 * SendTimeoutError), and `signal` tells the send to stop: no next part, no next call, and the
 * request in flight aborted. Without `sendBy` (no ledger), the send is waited out.
 */
function attemptDeadline(key: string, id: string, sendBy: Date | undefined) {
  const controller = new AbortController();
  const timer =
    sendBy &&
    setTimeout(
      () => controller.abort(new SendTimeoutError(key, id)),
      Math.max(0, sendBy.getTime() - Date.now()),
    );
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), {
      once: true,
    });
  });
  aborted.catch(() => {}); // rejected only for whoever is waiting in `within`
  return {
    signal: controller.signal,
    within<T>(work: Promise<T>): Promise<T> {
      work.catch(() => {}); // abandoned at the deadline, its later failure is nobody's
      return Promise.race([work, aborted]);
    },
    clear: () => clearTimeout(timer || undefined),
  };
}

/** A send that outlasted its claim: abandoned, whether it delivered is not known. */
export class SendTimeoutError extends Error {
  constructor(key: string, id: string) {
    super(
      `the send of ${id} for ${key} took longer than state.send_timeout and was abandoned; it may have been delivered, so the next attempt looks for it first`,
    );
    this.name = "SendTimeoutError";
  }
}

/**
 * A delivery part that is no part: the last attempt failed in a way that may have delivered
 * (a timeout, a 5xx, abandoned at send_timeout), so the next one looks before it sends.
 */
const OUTCOME_UNKNOWN = "outcome unknown";

/**
 * Whether a failed send may have been delivered all the same: anything but the destination's
 * own refusal, as its sender's error says (`LandingVerdict`).
 */
function mayHaveLanded(error: unknown): boolean {
  return !hasLandingVerdict(error) || error.mayHaveLanded;
}

/**
 * The parts done, read from the ledger and written to it as each new one is done. After each,
 * the claim is checked: a send taken over meanwhile stops before its next part.
 */
async function progressOf(
  key: string,
  id: string,
  claim: number | undefined,
  ledger: DeliveryLedger | null,
  signal: AbortSignal,
): Promise<DeliveryProgress & { stillOurs(): Promise<boolean> }> {
  const done = new Map<string, string | null>((await ledger?.partsDone?.(key, id)) ?? []);
  const stillOurs = async () =>
    claim === undefined || ((await ledger?.holdsClaim?.(key, id, claim)) ?? true);
  return {
    done,
    signal,
    stillOurs,
    async record(part, ref) {
      if (done.has(part)) return;
      done.set(part, ref);
      await ledger?.recordPart?.(key, id, part, ref);
      signal.throwIfAborted();
      if (!(await stillOurs())) throw new ClaimLostError(key, id);
    },
  };
}

/** A send stopped between its parts: another process took its claim over. */
export class ClaimLostError extends Error {
  constructor(key: string, id: string) {
    super(
      `the send of ${id} for ${key} was taken over by another process; stopped before its next part`,
    );
    this.name = "ClaimLostError";
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function asError(error: unknown): Error | ReporterError {
  return error instanceof Error ? error : new Error(String(error));
}
