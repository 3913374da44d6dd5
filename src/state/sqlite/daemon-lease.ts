import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { LedgerLockedError } from "../../errors.js";
import type { LedgerLease, Sync } from "../ledger.js";

// One daemon per ledger. The holder renews its lease every tick; a lease not renewed for
// STALE_AFTER_MS belongs to a daemon that died (or hung), and so does one whose pid is gone
// on this host, which lets a successor start at once after a SIGKILL.

export const STALE_AFTER_MS = 2 * 60_000;

interface LeaseRow {
  owner: string;
  token: string;
  pid: number;
  host: string;
  acquired_at: string;
  renewed_at: string;
}

/** Who this process is, and how to tell whether another process is alive. */
export interface LeaseIdentity {
  pid: number;
  hostname: string;
  /** When this process started, on the ledger's clock. */
  startedAt: Date;
  isProcessAlive: (pid: number) => boolean;
}

export type DaemonLease = Sync<LedgerLease>;

/** The lease of the ledger at `location`, for this connection. */
export function createDaemonLease(
  db: Database.Database,
  location: string,
  now: () => Date,
  identity: LeaseIdentity,
): DaemonLease {
  // Each connection is its own claimant: a second ledger opened in the same process is refused too.
  const token = randomUUID();
  let owner: string | null = null;
  const read = db.prepare<[], LeaseRow>("SELECT * FROM daemon_lease WHERE id = 1");
  const claim = db.prepare(
    `INSERT INTO daemon_lease (id, owner, token, pid, host, acquired_at, renewed_at)
     VALUES (1, @owner, @token, @pid, @host, @now, @now)
     ON CONFLICT (id) DO UPDATE SET owner = @owner, token = @token, pid = @pid, host = @host,
       acquired_at = @now, renewed_at = @now`,
  );
  const renew = db.prepare<[string, string]>(
    "UPDATE daemon_lease SET renewed_at = ? WHERE id = 1 AND token = ?",
  );
  const release = db.prepare<[string]>("DELETE FROM daemon_lease WHERE id = 1 AND token = ?");

  const isLive = (lease: LeaseRow, at: Date) => {
    if (lease.token === token) return false; // our own
    if (at.getTime() - Date.parse(lease.renewed_at) > STALE_AFTER_MS) return false;
    if (lease.host !== identity.hostname) return true;
    if (lease.pid === identity.pid) {
      // Our pid: another ledger of this process, or a process before ours that had the same
      // pid — a restarted container's pid 1 — which cannot have renewed it since we started.
      return Date.parse(lease.renewed_at) >= identity.startedAt.getTime();
    }
    return identity.isProcessAlive(lease.pid);
  };

  const take = (name: string, at: Date) =>
    claim.run({
      owner: name,
      token,
      pid: identity.pid,
      host: identity.hostname,
      now: at.toISOString(),
    });

  return {
    acquireDaemonLease: (name) => {
      db.transaction(() => {
        const at = now();
        const held = read.get();
        if (held && isLive(held, at)) throw lockedError(location, held);
        take(name, at);
      }).immediate();
      owner = name;
    },

    renewLease: () => {
      if (owner === null) throw new Error("renewLease() was called before acquireDaemonLease()");
      const name = owner;
      db.transaction(() => {
        const at = now();
        if (renew.run(at.toISOString(), token).changes > 0) return;
        const held = read.get();
        // Taken over while we were not renewing: another daemon now owns the ledger.
        if (held && held.token !== token) throw lockedError(location, held, "taken over");
        take(name, at);
      }).immediate();
    },

    releaseLease: () => {
      release.run(token);
      owner = null;
    },
  };
}

function lockedError(
  location: string,
  held: LeaseRow,
  how: "held" | "taken over" = "held",
): LedgerLockedError {
  const who = `${held.owner} (pid ${held.pid} on ${held.host})`;
  const context = {
    ledger: location,
    owner: held.owner,
    pid: held.pid,
    host: held.host,
    since: held.acquired_at,
  };
  if (how === "taken over") {
    return new LedgerLockedError(
      `this daemon lost the ledger ${location}: ${who} took it over at ${held.acquired_at}, after this daemon had not renewed its lease for ${STALE_AFTER_MS / 60_000} minutes — stop one of the two daemons, or point state.path elsewhere`,
      context,
    );
  }
  return new LedgerLockedError(
    `the ledger ${location} is in use by another daemon: ${who}, since ${held.acquired_at} (last seen ${held.renewed_at}) — stop the other daemon, or point state.path elsewhere (a daemon that was killed frees it ${STALE_AFTER_MS / 60_000} minutes after it was last seen)`,
    context,
  );
}

/** Whether a process with this pid exists on this host (signal 0 only checks). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
