import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The ledger `start --outbox DIR` keeps in DIR, apart from the real one; `history --outbox` reads it. */
export function outboxLedgerPath(dir: string): string {
  return join(dir, "outbox-ledger.sqlite");
}

/**
 * `--outbox DIR`: what would be sent, written as files instead (docs/commands.md). Each
 * destination's outbox writer (destinations/<kind>/) names its files: `<key>.slack.json`,
 * `<key>.eml`, each workbook as `<name>.xlsx`.
 */
export interface OutboxFiles {
  /** Writes one file into the outbox; returns its path. */
  save(name: string, content: string | Buffer): Promise<string>;
  /** Paths written so far, in order, for the command to list. */
  written: string[];
}

export function createOutboxFiles(dir: string): OutboxFiles {
  const written: string[] = [];
  const save = async (name: string, content: string | Buffer) => {
    const path = join(dir, safeFileName(name));
    // The folder is made when a write finds it missing, not before every write: a cycle writes
    // hundreds of files into one folder, and one removed meanwhile is made again all the same.
    try {
      await writeFile(path, content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(dir, { recursive: true });
      await writeFile(path, content);
    }
    // A workbook both attached to the mail and uploaded to Slack is one file: list it once.
    if (!written.includes(path)) written.push(path);
    return path;
  };
  return { save, written };
}

/** Keys and file names are ours, but a team or period could still make an odd name: keep it a plain file name. */
function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}
