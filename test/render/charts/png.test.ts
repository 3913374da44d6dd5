import { readFile } from "node:fs/promises";
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { encodePng, encodePngOfOwnPixels } from "../../../src/render/charts/png.js";
import { decodePng, pngSize } from "./png-pixels.js";

// The charts' PNGs are written by png.ts from resvg's pixels; resvg's own encoder (asPng) is
// the reference: both files decode to exactly the pixels resvg drew.

function render(svg: string): ReturnType<Resvg["render"]> {
  return new Resvg(svg, { background: "#ffffff", font: { loadSystemFonts: false } }).render();
}

/** Shapes with soft edges and a translucent fill on white, at a width whose rows are not a multiple of 8 bytes. */
const SHAPES = `<svg xmlns="http://www.w3.org/2000/svg" width="101" height="37">
  <circle cx="30" cy="18" r="13.3" fill="#0072B2" fill-opacity="0.4"/>
  <path d="M2 35 L99 3" stroke="#D55E00" stroke-width="1.7"/>
  <rect x="60.5" y="5.25" width="30" height="20" fill="#E69F00"/>
</svg>`;

async function goldenChart(): Promise<ReturnType<Resvg["render"]>> {
  const png = await readFile(new URL("./golden/flaky-rate.png", import.meta.url));
  const { width, height } = pngSize(png);
  return render(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${png.toString("base64")}"/></svg>`,
  );
}

describe("encodePng", () => {
  it("keeps every pixel resvg drew, at an odd width", () => {
    const image = render(SHAPES);
    const png = encodePng(image);
    expect(pngSize(png)).toEqual({ width: 101, height: 37 });
    const decoded = decodePng(png);
    expect(decoded.rgba.equals(image.pixels)).toBe(true);
    expect(decoded.rgba.equals(decodePng(image.asPng()).rgba)).toBe(true);
  });

  it("keeps every pixel of a chart, in a file no larger than resvg's own", async () => {
    const image = await goldenChart();
    expect([image.width, image.height]).toEqual([1200, 520]);
    const png = encodePng(image);
    const resvgs = image.asPng();
    expect(decodePng(png).rgba.equals(image.pixels)).toBe(true);
    expect(decodePng(png).rgba.equals(decodePng(resvgs).rgba)).toBe(true);
    expect(png.length).toBeLessThanOrEqual(resvgs.length);
  });

  it("refuses pixels that are not width × height RGBA", () => {
    expect(() => encodePng({ width: 3, height: 2, pixels: new Uint8Array(3 * 2 * 3) })).toThrow(
      RangeError,
    );
  });

  it("refuses an image without pixels, which PNG cannot hold", () => {
    for (const [width, height] of [
      [0, 2],
      [3, 0],
      [0, 0],
    ] as const) {
      expect(() => encodePng({ width, height, pixels: new Uint8Array(0) })).toThrow(
        `a PNG is at least 1×1 pixels, not ${width}×${height}`,
      );
    }
  });
});

describe("freeing what the PNG no longer needs", () => {
  /**
   * A stand-in for freeBytes that wipes what it is given, on every Node (freeBytes detaches
   * only on Node 21 and later): freed too early, the PNG would decode to black.
   */
  function wiper() {
    const freed: Uint8Array[] = [];
    const wipe = (bytes: Uint8Array) => {
      freed.push(bytes);
      bytes.fill(0);
    };
    return { freed, wipe };
  }
  const pixelsOf = () => Uint8Array.from(render(SHAPES).pixels);

  it("frees its scanlines only once compressed, and leaves the caller's pixels alone", () => {
    const { freed, wipe } = wiper();
    const pixels = pixelsOf();
    const png = encodePng({ width: 101, height: 37, pixels }, wipe);
    expect(freed).toHaveLength(1);
    expect(freed[0]).not.toBe(pixels);
    expect(pixels).toEqual(pixelsOf());
    expect(decodePng(png).rgba.equals(Buffer.from(pixelsOf()))).toBe(true);
  });

  it("frees pixels it was handed only once they are encoded", () => {
    const { freed, wipe } = wiper();
    const pixels = pixelsOf();
    const png = encodePngOfOwnPixels({ width: 101, height: 37, pixels }, wipe);
    expect(freed.at(-1)).toBe(pixels);
    expect(pixels.every((byte) => byte === 0)).toBe(true);
    expect(decodePng(png).rgba.equals(Buffer.from(pixelsOf()))).toBe(true);
  });
});
