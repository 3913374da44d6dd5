import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { collectorOfThisThread } from "../../../src/chart-painter/collector.js";
import { pngRows } from "../../../src/render/charts/png.js";
import { rasterInStripes } from "../../../src/render/charts/raster.js";
import { decodePng } from "./png-pixels.js";

// The stripes' memory: one scanline buffer kept from image to image (png.ts), a hook between
// stripes where the chart worker collects (raster.ts), and the worker's `gc` (collector.ts).

const keep = () => {};

function rowsOf(width: number, height: number, seed: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = i % 4 === 3 ? 255 : (i * seed) % 251;
  return pixels;
}

async function pngOf(width: number, stripes: Uint8Array[]): Promise<Buffer> {
  const height = stripes.reduce((rows, stripe) => rows + stripe.length / (width * 4), 0);
  const png = pngRows(width, height, keep);
  for (const stripe of stripes) await png.add(stripe);
  return png.end();
}

describe("pngRows, image after image", () => {
  it("writes each image's own pixels with the scanline buffer the last one left", async () => {
    const first = [rowsOf(7, 3, 3), rowsOf(7, 2, 5)];
    const second = [rowsOf(7, 4, 11), rowsOf(7, 1, 13)];
    const firstPng = await pngOf(7, first);
    const secondPng = await pngOf(7, second);
    expect(decodePng(firstPng).rgba.equals(Buffer.concat(first))).toBe(true);
    expect(decodePng(secondPng).rgba.equals(Buffer.concat(second))).toBe(true);
  });

  it("writes two images at once, each with its own scanlines", async () => {
    const a = [rowsOf(5, 2, 7), rowsOf(5, 2, 17)];
    const b = [rowsOf(5, 3, 19), rowsOf(5, 1, 23)];
    const [pngA, pngB] = await Promise.all([pngOf(5, a), pngOf(5, b)]);
    expect(decodePng(pngA).rgba.equals(Buffer.concat(a))).toBe(true);
    expect(decodePng(pngB).rgba.equals(Buffer.concat(b))).toBe(true);
  });
});

describe("rasterInStripes", () => {
  it("calls betweenStripes once after each stripe", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="25"><rect width="20" height="25" fill="#0072B2"/></svg>`;
    let calls = 0;
    const drawn = await rasterInStripes(svg, {
      width: 40,
      background: "#ffffff",
      font: { loadSystemFonts: false },
      stripeRows: 16,
      betweenStripes: () => calls++,
    });
    expect(drawn.height).toBe(50);
    expect(calls).toBe(Math.ceil(50 / 16));
  });
});

describe("collectorOfThisThread", () => {
  it("gives V8's gc and leaves later contexts without it", () => {
    const collect = collectorOfThisThread();
    expect(typeof collect).toBe("function");
    collect?.({ type: "minor" });
    collect?.();
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});
