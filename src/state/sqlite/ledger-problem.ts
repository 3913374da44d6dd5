import { join } from "node:path";
import { LedgerDiskError, LedgerError, ReporterError } from "../../errors.js";

// What is wrong with a ledger file, in one line that names it and the fix. The file is the
// user's (state.path), so nothing here ever deletes or rewrites it: the fix is theirs to choose.

// Starting afresh forgets what was delivered: worth saying before anyone moves a ledger away.
const FRESH_START =
  "point state.path at a new file (an empty ledger forgets what was delivered, so a digest of a recent period may be sent again)";

/**
 * The LedgerError for an error about the file itself — its path, its permissions, its bytes —
 * or null for anything else (a busy lock, a bug in our SQL), which is left to surface as is.
 */
export function ledgerProblem(
  location: string,
  error: unknown,
): LedgerError | LedgerDiskError | null {
  if (error instanceof ReporterError) return null;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return null;
  const reason = error instanceof Error ? error.message : "";
  const context = { ledger: location, code };
  if (isDiskFailure(code)) {
    return new LedgerDiskError(
      `cannot write the ledger ${location} (${code}: ${reason}) — free space on the disk that holds it (or check it for errors) and run again, or point state.path elsewhere`,
      context,
      { cause: error },
    );
  }
  const message = describe(location, code, reason);
  return message === null ? null : new LedgerError(message, context, { cause: error });
}

/** A full disk (or a file-size limit) or a failing one: the file itself is fine. */
function isDiskFailure(code: string): boolean {
  return (
    code.startsWith("SQLITE_IOERR") ||
    code === "SQLITE_FULL" ||
    code === "ENOSPC" ||
    code === "EFBIG" ||
    code === "EIO"
  );
}

function describe(location: string, code: string, reason: string): string | null {
  const writable = "writable by this user (SQLite also writes -wal and -shm files beside it)";
  switch (code) {
    case "ENOTDIR":
    case "EEXIST":
      return `cannot create the ledger ${location}: a part of its path is a file, not a directory — point state.path at a file in a directory`;
    case "EACCES":
    case "EPERM":
    case "SQLITE_PERM":
      return `cannot open the ledger ${location}: permission denied (${code}) — make its directory ${writable}, or point state.path elsewhere`;
    case "SQLITE_CANTOPEN":
      return `cannot open the ledger ${location} (${code}: ${reason}) — check that its directory exists and is ${writable}, or point state.path elsewhere`;
    case "SQLITE_NOTADB":
      return `${location} is not an SQLite database, so it cannot be the ledger — point state.path at a new file (this one is left as it is)`;
  }
  if (code === "EROFS" || code.startsWith("SQLITE_READONLY")) {
    return `the ledger ${location} is read-only (${code}) — make the file and its directory ${writable}, or point state.path elsewhere`;
  }
  if (code.startsWith("SQLITE_CORRUPT")) {
    return `the ledger ${location} is damaged (${reason}) — restore it from a backup, or ${FRESH_START}`;
  }
  return null;
}

/** state.path names a directory. */
export function directoryError(location: string): LedgerError {
  return new LedgerError(
    `the ledger ${location} is a directory — point state.path at a file, e.g. ${join(location, "reporter.sqlite")}`,
    { ledger: location },
  );
}

/** A ledger written by a newer insights-reporter. */
export function newerSchemaError(location: string, found: number, known: number): LedgerError {
  return new LedgerError(
    `the ledger ${location} has schema version ${found}, newer than this insights-reporter knows (${known}) — upgrade insights-reporter, or point state.path elsewhere`,
    { ledger: location, found, known },
  );
}

/** A database that holds tables, none of them ours: another program's file. */
export function foreignDatabaseError(location: string, tables: readonly string[]): LedgerError {
  return new LedgerError(
    `${location} is an SQLite database of something else (tables ${tables.join(", ")}) — point state.path at a new file (this one is left as it is)`,
    { ledger: location, tables },
  );
}

/** A database at our version whose tables lack columns we use. */
export function wrongSchemaError(
  location: string,
  version: number,
  missing: readonly string[],
): LedgerError {
  return new LedgerError(
    `the ledger ${location} says schema version ${version} but lacks ${listed(missing)}, so it was not written by insights-reporter or was changed by hand — restore it from a backup, or ${FRESH_START}`,
    { ledger: location, version, missing },
  );
}

function listed(items: readonly string[], most = 5): string {
  const more = items.length - most;
  return `${items.slice(0, most).join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/**
 * The same ledger, with every method turning a problem with the file into a LedgerError. A call
 * that failed for the disk (full, failing) makes `reachable` report it, so the daemon's /readyz
 * answers 503, until that same call succeeds again: reads go on working on a full disk, so
 * only a write that succeeds says there is room again.
 */
export function reportingLedgerProblems<T extends object>(target: T, location: string): T {
  const diskFailures = new Map<string, string>();
  const guarded = Object.entries(target).map(([name, value]) => [
    name,
    typeof value === "function"
      ? (...args: unknown[]) => {
          try {
            const result = value(...args);
            diskFailures.delete(name);
            return result;
          } catch (error) {
            const problem = ledgerProblem(location, error);
            if (problem instanceof LedgerDiskError) diskFailures.set(name, problem.message);
            throw problem ?? error;
          }
        }
      : value,
  ]);
  const ledger = Object.fromEntries(guarded) as Record<string, unknown>;
  const reachable = ledger.reachable;
  if (typeof reachable === "function") {
    ledger.reachable = () => diskFailures.values().next().value ?? reachable();
  }
  return ledger as T;
}
