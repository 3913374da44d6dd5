// The start of an HTTP answer's body, for an error worth quoting: a receiver's reason is short,
// and a body read to its end could be endless.

/** A body's first `maxBytes`, gathered chunk by chunk from a stream or a dispatch handler. */
export interface BodyStart {
  /** Keeps `chunk`; false once `maxBytes` are held, when reading should stop. */
  add(chunk: Uint8Array): boolean;
  /** What was kept, cut to `maxBytes`, as UTF-8 text. */
  text(): string;
}

/** An empty `BodyStart` for the first `maxBytes` of a body. */
export function bodyStart(maxBytes: number): BodyStart {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    add(chunk) {
      chunks.push(chunk);
      size += chunk.length;
      return size < maxBytes;
    },
    text: () => Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8"),
  };
}

/**
 * The first `maxBytes` of a body as text. Reading stops there, and stopping early cancels the
 * body (a web stream) or destroys it (a Node stream): the connection is dropped instead of
 * draining the rest. A body that fails mid-read throws.
 */
export async function readStart(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<string> {
  const start = bodyStart(maxBytes);
  for await (const chunk of body) {
    if (!start.add(chunk)) break;
  }
  return start.text();
}
