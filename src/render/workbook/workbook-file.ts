import { once } from "node:events";
import { open, rename, rm } from "node:fs/promises";
import type { Report } from "../../report/types.js";
import { type WorkbookOptions, writeWorkbook } from "./workbook.js";

/**
 * `export --out FILE.xlsx`: the workbook streamed to disk. It is written beside the target and
 * renamed into place when complete, so a failed export never leaves a truncated FILE.xlsx.
 */
export async function writeWorkbookFile(
  report: Report,
  path: string,
  options: WorkbookOptions = {},
): Promise<void> {
  const partial = `${path}.partial`;
  // Opening first surfaces a missing directory or a permission problem as a plain rejection.
  const handle = await open(partial, "w");
  const stream = handle.createWriteStream();
  const failed = new Promise<never>((_, reject) => stream.once("error", reject));
  failed.catch(() => {});
  try {
    const closed = once(stream, "close");
    await Promise.race([writeWorkbook(report, stream, options), failed]);
    await Promise.race([closed, failed]);
    await rename(partial, path);
  } catch (error) {
    stream.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
