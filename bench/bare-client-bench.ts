import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { cycleTeams, POOL, projectIds, slowEmulator, uniqueInsightsPaths } from "./cycle-bench.js";

// The floor of a cycle on this machine: the cycle's unique requests (the project list's pages
// and every insights request once) sent by a bare client to the same emulator, with exactly
// `concurrency` in flight on one keep-alive pool, and nothing else done: no checking, no
// digests. What the cycle takes beyond this is the reporter's; what this takes beyond the
// latency bound is the emulator's and the machine's (2 cores shared with the emulator).

export async function measureBareClient(
  concurrency: number,
  today: string,
  options: { charts?: boolean } = {},
): Promise<number> {
  const emulator = await slowEmulator(today);
  const url = new URL(emulator.url);
  const pool = new Pool(url.origin);
  try {
    const teams = cycleTeams(await projectIds(emulator.url), "0 9 * * *");
    const pages = Array.from(
      { length: Math.ceil(POOL / 100) },
      (_, i) => `/projects?page_number=${i + 1}&page_size=100`,
    );
    const paths = [...pages, ...uniqueInsightsPaths(teams, today, options)];
    const started = performance.now();
    await sendBare(pool, url.pathname, paths, concurrency);
    return performance.now() - started;
  } finally {
    await pool.close();
    await emulator.stop();
  }
}

/** Sends `paths` (below `basePath`) with `concurrency` in flight, each answer parsed as JSON. */
export async function sendBare(
  pool: Pool,
  basePath: string,
  paths: readonly string[],
  concurrency: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let path = paths[next++]; path !== undefined; path = paths[next++]) {
        const response = await pool.request({
          method: "GET",
          path: `${basePath}${path}`,
          headers: { "x-api-key": "demo-key", accept: "application/json" },
        });
        JSON.parse(await response.body.text());
      }
    }),
  );
}
