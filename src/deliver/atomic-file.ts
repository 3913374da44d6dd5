import { once } from "node:events";
import { open, rename, rm } from "node:fs/promises";
import type { Writable } from "node:stream";

/**
 * Streams a file to `path` through `write`: written beside the target and renamed into place
 * when complete, so a failure never leaves a truncated file (`export --out FILE.xlsx`).
 */
export async function writeFileAtomically(
  path: string,
  write: (stream: Writable) => Promise<void>,
): Promise<void> {
  const partial = `${path}.partial`;
  // Opening first surfaces a missing directory or a permission problem as a plain rejection.
  const handle = await open(partial, "w");
  const stream = handle.createWriteStream();
  const failed = new Promise<never>((_, reject) => stream.once("error", reject));
  failed.catch(() => {});
  try {
    const closed = once(stream, "close");
    await Promise.race([write(stream), failed]);
    await Promise.race([closed, failed]);
    await rename(partial, path);
  } catch (error) {
    stream.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
