import { statSync } from "node:fs";

// SQLite keeps writing to the file it opened even after the path is deleted or another file is
// put in its place: the daemon would go on recording into a file no later process sees, and a
// restart would find no record of what was delivered. Comparing the path's inode with the one
// opened notices that.

/** A check of the ledger's path against the file opened; a problem in words (with the fix), or null. */
export function watchLedgerFile(location: string): () => string | null {
  const opened = statSync(location);
  return () => {
    let current: ReturnType<typeof statSync>;
    try {
      current = statSync(location);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        return `the ledger ${location} was deleted while the daemon had it open, so what it records now is lost at the next start — restore the file, or restart the daemon (it then looks in each channel before posting)`;
      }
      return `cannot check the ledger ${location} (${code ?? String(error)}) — check that state.path and its directory are readable`;
    }
    if (current.ino !== opened.ino || current.dev !== opened.dev) {
      return `the ledger ${location} was replaced by another file while the daemon had it open — restart the daemon so that it uses the file now at state.path`;
    }
    return null;
  };
}
