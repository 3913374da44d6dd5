import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ledgerProblem } from "./ledger-problem.js";

// Apart from open-ledger.ts, so that asking (`preview`, `run --outbox` on a fresh machine) loads
// no SQLite driver: the driver is loaded only to open a ledger that is there.

/**
 * Whether something is at `path` to open. Only "nothing there" is false: a path that cannot
 * be looked at (a file for a parent, no permission) is a LedgerError, not a missing ledger.
 */
export function ledgerExists(path: string): boolean {
  const location = resolve(path);
  try {
    statSync(location);
    return true;
  } catch (error) {
    // Only ENOENT means no ledger: a path under a file (ENOTDIR) is a mistake to name, though
    // Node 24's `throwIfNoEntry: false` would answer it with "nothing here" too.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw ledgerProblem(location, error) ?? error;
  }
}
