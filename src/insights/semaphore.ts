/** At most `limit` tasks at once; the rest wait their turn in arrival order, urgent ones first. */
export interface Semaphore {
  /** With `urgent`, the task goes before every task still waiting (see the project list). */
  run<T>(task: () => Promise<T>, options?: { urgent?: boolean }): Promise<T>;
}

/** A counting semaphore; one per client, so every call of the client shares the limit. */
export function createSemaphore(limit: number): Semaphore {
  let active = 0;
  const waiting: (() => void)[] = [];
  // Urgent waiters sit at the front of `waiting`, in their own arrival order.
  let urgentWaiting = 0;
  const release = (): void => {
    const next = waiting.shift();
    if (next) {
      if (urgentWaiting > 0) urgentWaiting--;
      next();
    } else active--;
  };
  return {
    async run<T>(task: () => Promise<T>, options: { urgent?: boolean } = {}): Promise<T> {
      if (active < limit) active++;
      // A released slot passes straight to the next waiter, so `active` stays as is.
      else
        await new Promise<void>((resolve) => {
          if (options.urgent) waiting.splice(urgentWaiting++, 0, resolve);
          else waiting.push(resolve);
        });
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
