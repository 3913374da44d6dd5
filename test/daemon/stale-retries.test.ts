import { request } from "node:http";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startOpsServer } from "../../src/ops/ops-server.js";
import { aTeam, useHarness } from "./daemon-harness.js";

/**
 * A daemon started on a ledger with thousands of retries whose job has left the config gives
 * them all up in its first tick: in batches, handing the event loop back between them (so
 * /healthz answers meanwhile), and saying so in one line instead of one per delivery.
 */

const harness = useHarness();
const STALE = 20_000;

/** Records STALE failed deliveries of a job the config no longer has, each due for a retry. */
function seedStaleRetries(file: string): void {
  const db = new Database(file);
  const slot = db.prepare(
    `INSERT INTO slots (key, team, kind, job, fire_at, period_start, period_end, created_at)
     VALUES (?, 'checkout', 'digest', 'gone', ?, '2026-06-09', '2026-06-09', ?)`,
  );
  const delivery = db.prepare(
    `INSERT INTO deliveries (slot_key, destination, state, attempts, last_error, next_attempt_at, updated_at)
     VALUES (?, 'slack:C0123ABCD', 'failed', 1, 'refused', '2026-06-10T05:00:00.000Z', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < STALE; i++) {
      const fire = new Date(Date.parse("2026-06-10T04:00:00Z") - i * 60_000).toISOString();
      slot.run(`checkout.gone.${i}`, fire, fire);
      delivery.run(`checkout.gone.${i}`, fire);
    }
  })();
  db.close();
}

/** GET /healthz; resolves with the status when the answer arrives. */
function healthz(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/healthz`, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("stale retries at daemon start", () => {
  it("are given up in batches with one summary line, while /healthz keeps answering", async () => {
    const h = await harness([aTeam()]);
    seedStaleRetries(h.ledger.location);
    const ops = await startOpsServer({
      host: "127.0.0.1",
      port: 0,
      readiness: async () => ({ ready: true, checks: {} }),
      metrics: async () => ({ contentType: "text/plain", body: "" }),
    });
    try {
      const order: string[] = [];
      const tick = h.tickOnly("2026-06-10T06:00:30Z").then(() => order.push("tick done"));
      // Asked once the tick has begun giving up: it must be answered before the tick ends.
      const answered = healthz(ops.url).then((status) => order.push(`healthz ${status}`));
      await Promise.all([tick, answered]);
      expect(order).toEqual(["healthz 200", "tick done"]);
    } finally {
      await ops.close();
    }
    const givenUp = h.logs.filter((line) => String(line.msg).includes("given up"));
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]).toMatchObject({ deliveries: STALE });
    expect(await h.ledger.dueRetries(h.now())).toEqual([]);
  }, 60_000);
});
