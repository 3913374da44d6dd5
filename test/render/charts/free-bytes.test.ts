import { describe, expect, it } from "vitest";
import { freeBytes } from "../../../src/render/charts/free-bytes.js";
import { encodePng } from "../../../src/render/charts/png.js";
import { decodePng } from "./png-pixels.js";

// freeBytes gives a chart's pixel buffers back at once where the runtime can detach them
// (Node 21 and later), and must never touch memory that other views share.

const canDetach = typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === "function";

/** The buffers freeBytes would detach, on any Node. */
function detachedBy(bytes: Uint8Array): ArrayBuffer[] {
  const detached: ArrayBuffer[] = [];
  freeBytes(bytes, (buffer) => detached.push(buffer));
  return detached;
}

describe("freeBytes", () => {
  it("detaches a buffer its view wholly owns", () => {
    const bytes = new Uint8Array(1024);
    expect(detachedBy(bytes)).toEqual([bytes.buffer]);
  });

  it("leaves a view into a larger buffer alone", () => {
    const whole = new Uint8Array(64);
    expect(detachedBy(whole.subarray(8, 16))).toEqual([]);
    expect(detachedBy(whole.subarray(0, 63))).toEqual([]);
  });

  it("leaves a small Buffer from Node's shared pool alone", () => {
    const pooled = Buffer.from("pooled");
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    expect(detachedBy(pooled)).toEqual([]);
  });

  it("leaves a SharedArrayBuffer alone", () => {
    expect(detachedBy(new Uint8Array(new SharedArrayBuffer(16)))).toEqual([]);
  });

  it(`by default ${canDetach ? "detaches it now" : "leaves it to the collector (no ArrayBuffer.prototype.transfer on this Node)"}`, () => {
    const bytes = new Uint8Array(1024).fill(7);
    freeBytes(bytes);
    if (canDetach) expect([bytes.buffer.byteLength, bytes.length]).toEqual([0, 0]);
    else expect([bytes.buffer.byteLength, bytes[1023]]).toEqual([1024, 7]);
  });
});

describe("encodePng with its scanlines freed", () => {
  it("leaves the caller's pixels as they were, and its PNG decodes to them", () => {
    const pixels = new Uint8Array(5 * 3 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 37) % 256));
    const copy = Uint8Array.from(pixels);
    const png = encodePng({ width: 5, height: 3, pixels });
    expect(pixels).toEqual(copy);
    expect(Uint8Array.from(decodePng(png).rgba)).toEqual(copy);
  });
});
