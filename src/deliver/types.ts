// What every destination's sender is handed: the parts of its delivery already done, kept in the
// ledger as each is done. Each kind's client interface lives in its own folder
// (destinations/<kind>/), so the delivery loop knows no kind.

/**
 * The parts of one delivery already done (`post` with its ts, `thread 1`, `upload`), kept in the
 * ledger as each is done, so an attempt after a crash sends only what is missing.
 */
export interface DeliveryProgress {
  done: ReadonlyMap<string, string | null>;
  /** Records a part as done; rejects when the send was taken over meanwhile (stop sending). */
  record(part: string, ref: string | null): Promise<void>;
  /** Aborted at the attempt's deadline (`state.send_timeout`): no further call may start. */
  signal?: AbortSignal;
}
