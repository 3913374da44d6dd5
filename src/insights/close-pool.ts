import type { Pool } from "undici";

/**
 * Closes the pool gracefully, but destroys it after `ms` (one attempt's deadline), when no
 * attempt of ours can still be running: requests the pool never dispatched (see
 * send-attempt.ts) would otherwise keep a graceful close waiting forever.
 */
export async function closePool(pool: Pool, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
  });
  try {
    const closed = pool.close().then(() => "closed" as const);
    if ((await Promise.race([closed, late])) === "late") await pool.destroy();
  } finally {
    clearTimeout(timer);
  }
}
