// The start of an HTTP answer's body, for an error worth quoting: a receiver's reason is short,
// and a body read to its end could be endless.

/**
 * The first `maxBytes` of a body as text. Reading stops there, and stopping early cancels the
 * body (a web stream) or destroys it (a Node stream): the connection is dropped instead of
 * draining the rest. A body that fails mid-read throws.
 */
export async function readStart(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= maxBytes) break;
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
}
