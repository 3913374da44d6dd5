// What the scheduler remembers per job between ticks, with its transitions named: when it was
// last planned (fires up to then were decided on, see planCatchUp), its next fire (until then
// there is nothing to plan, so a tick of a daemon at rest costs a lookup per job, not a cron
// walk), and a due slot left alone because another process is sending it.

/** A fire of a job that is due, with its slot key. */
export interface DueSlot {
  fire: Date;
  key: string;
}

export interface JobPlans {
  /** When the job was last planned, or null before its first plan. */
  lastPlannedAt(jobId: string): Date | null;
  /**
   * The job's next fire (ms) while it is still ahead of `now` and nothing of it waits on
   * another process; null when the job is to be planned now.
   */
  restingUntil(jobId: string, now: Date): number | null;
  /** The job was planned at `now`; its next fire is `nextFire` (ms, or none). */
  planned(jobId: string, now: Date, nextFire: number | undefined): void;
  /** A due slot of the job is being sent by another process: look at it again next tick. */
  leftElsewhere(jobId: string, due: DueSlot): void;
  /** The slot left to another process, taken out of the memory (it is put back if still sent). */
  takeElsewhere(jobId: string): DueSlot | null;
  /** Whether any slot waits on another process's send (the scheduler then polls quickly). */
  anyElsewhere(): boolean;
  /** The config changed: forget the jobs not in `ids`, and plan every job again. */
  replaced(ids: ReadonlySet<string>): void;
}

/** An empty memory: every job is planned on its first tick. */
export function createJobPlans(): JobPlans {
  const lastChecked = new Map<string, Date>();
  const nextFireAt = new Map<string, number>();
  const elsewhere = new Map<string, DueSlot>();
  return {
    lastPlannedAt: (jobId) => lastChecked.get(jobId) ?? null,
    restingUntil(jobId, now) {
      const next = nextFireAt.get(jobId);
      return next !== undefined && next > now.getTime() && !elsewhere.has(jobId) ? next : null;
    },
    planned(jobId, now, nextFire) {
      lastChecked.set(jobId, now);
      nextFireAt.set(jobId, nextFire ?? Number.POSITIVE_INFINITY);
    },
    leftElsewhere: (jobId, due) => void elsewhere.set(jobId, due),
    takeElsewhere(jobId) {
      const due = elsewhere.get(jobId) ?? null;
      elsewhere.delete(jobId);
      return due;
    },
    anyElsewhere: () => elsewhere.size > 0,
    replaced(ids) {
      for (const id of lastChecked.keys()) if (!ids.has(id)) lastChecked.delete(id);
      // A changed schedule has other fires: every job is planned again on the next tick.
      nextFireAt.clear();
      for (const id of elsewhere.keys()) if (!ids.has(id)) elsewhere.delete(id);
    },
  };
}
