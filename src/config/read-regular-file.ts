import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

// A config (or a NAME_FILE) named by mistake may be /dev/zero, /dev/urandom or a FIFO: reading
// one never ends (or waits for a writer forever). Only a regular file is read, and only up to
// a limit, so such a mistake is one line at once instead of a hang.

/** The path names something other than a regular file; `what` says what, in words. */
export class NotAFileError extends Error {
  readonly code = "NOT_A_FILE";
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${path} is ${what}, not a file`);
  }
}

/** The file holds more than the limit; `bytes` is at least what it holds. */
export class FileTooLargeError extends Error {
  readonly code = "TOO_LARGE";
  constructor(
    readonly path: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`${path} is over ${limit} bytes`);
  }
}

/** The text of a regular file of at most `maxBytes` bytes, as UTF-8; fs errors pass as they are. */
export function readRegularFile(path: string, maxBytes: number): string {
  // O_NONBLOCK: opening a FIFO no one writes to returns at once instead of waiting for a writer.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotAFileError(path, kindOf(stats));
    if (stats.size > maxBytes) throw new FileTooLargeError(path, stats.size, maxBytes);
    // The file may grow after fstat: read one byte past the limit to notice, never more.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) throw new FileTooLargeError(path, length, maxBytes);
    }
    return buffer.toString("utf8", 0, length);
  } finally {
    closeSync(fd);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}
