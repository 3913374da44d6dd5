import { describe, expect, it } from "vitest";
import { freeBytes } from "../../../src/render/charts/free-bytes.js";

// freeBytes detaches a chart's pixel buffers once they are encoded (their memory going at once
// on Node 21 and later), and must never touch memory that other views share.

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

  it("does nothing the second time, nor for an empty buffer", () => {
    // A real detach on every Node (structuredClone moves a plain buffer away since Node 17).
    const detach = (buffer: ArrayBuffer) => void structuredClone(buffer, { transfer: [buffer] });
    const bytes = new Uint8Array(16);
    freeBytes(bytes, detach);
    expect(bytes.length).toBe(0);
    expect(() => freeBytes(bytes, detach)).not.toThrow();
    expect(detachedBy(bytes)).toEqual([]);
    expect(detachedBy(new Uint8Array(0))).toEqual([]);
  });
});
