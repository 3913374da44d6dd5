import type { Pool } from "undici";

// undici's main entry loads all of undici (fetch, WebSocket, cookies, caches, mocks: ~40 ms of
// a command's start-up) where the insights client needs one class. This loads that class and
// gives it the request API, as the main entry does (`Object.assign(Dispatcher.prototype, api)`
// in undici's index.js; doing it twice is harmless). test/insights/undici-pool.test.ts fails
// if an upgrade of undici moves either module.

/** undici's `Pool`, with its `request`, loaded without the rest of undici. */
export async function loadUndiciPool(): Promise<typeof Pool> {
  const [pool, dispatcher, api] = await Promise.all([
    import("undici/lib/dispatcher/pool.js"),
    import("undici/lib/dispatcher/dispatcher.js"),
    import("undici/lib/api/index.js"),
  ]);
  Object.assign(dispatcher.default.prototype, api.default);
  return pool.default;
}
