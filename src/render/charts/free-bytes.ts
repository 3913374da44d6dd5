// Memory a chart is done with, given back at once instead of when V8 collects it. A chart's
// pixels (1.15 MB, copied out of resvg) and its scanlines (as much again) are held by small
// JavaScript objects, and V8, which sees only those, frees them late: on Node 24, 48 images
// drawn in a row left 46 MB of such buffers waiting, against 2.5 MB when each was detached,
// and a digest's first charts peak 2–5 MB lower (docs/performance.md, the charts' eighth stop).
// `ArrayBuffer.prototype.transfer(0)` (Node 21 and later) detaches a buffer and lets its memory
// go at once (resvg's copy on the next turn of the event loop, which the painter gives before
// each chart). Node 20 lacks it, and there the memory waits for the collector as before: moving
// the buffer into a dropped clone instead would copy resvg's buffers, which Node 20 will not
// move, and measured up to 3 MB worse.

type Detachable = ArrayBuffer & { transfer?: (newByteLength?: number) => ArrayBuffer };

/** Detaches `buffer`, its memory going now, where the runtime can (Node 21 and later). */
function detachNow(buffer: ArrayBuffer): void {
  (buffer as Detachable).transfer?.(0);
}

/**
 * Frees the memory under `bytes` when `bytes` is the whole of its own buffer. A view into a
 * larger or shared buffer (Node's pool of small Buffers) is left alone: detaching that would
 * take the memory from under its other views. Nothing may read `bytes` afterwards (on Node 21
 * and later it reads as empty); freeing it again does nothing.
 */
export function freeBytes(
  bytes: Uint8Array,
  detach: (buffer: ArrayBuffer) => void = detachNow,
): void {
  const buffer = bytes.buffer;
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0) return;
  if (bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength) return;
  detach(buffer);
}
