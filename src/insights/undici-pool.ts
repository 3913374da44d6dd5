import type { Pool } from "undici";

// undici's main entry loads all of undici (fetch, WebSocket, cookies, caches, mocks: ~40 ms of
// a command's start-up) where the insights client needs one class, and only its `dispatch`
// (send-attempt.ts): not the request API that the main entry mixes into every dispatcher.
// test/insights/undici-pool.test.ts fails if an upgrade of undici moves the module.

/** undici's `Pool`, loaded without the rest of undici. */
export async function loadUndiciPool(): Promise<typeof Pool> {
  return (await import("undici/lib/dispatcher/pool.js")).default;
}
