/** At most `limit` tasks at once; the rest wait their turn in arrival order. */
export interface Semaphore {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A counting semaphore; one per client, so every call of the client shares the limit. */
export function createSemaphore(limit: number): Semaphore {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < limit) active++;
      // A released slot passes straight to the next waiter, so `active` stays as is.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
