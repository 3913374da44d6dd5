import { Resvg } from "@resvg/resvg-js";

// Reading a PNG back to pixels with resvg, which the charts already need: the PNG is placed
// in an SVG of its own size and rendered at 1:1, which decodes it. The header's size is read
// from the IHDR chunk, so a file that is not a PNG fails before any drawing.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row by row. */
  rgba: Buffer;
}

/** The width and height a PNG's header declares; throws on a file that is not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (!png.subarray(0, 8).equals(SIGNATURE) || png.toString("latin1", 12, 16) !== "IHDR") {
    throw new Error("not a PNG");
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Decodes a PNG to RGBA pixels. */
export function decodePng(png: Buffer): Pixels {
  const { width, height } = pngSize(png);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${png.toString("base64")}"/></svg>`;
  const image = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  return { width: image.width, height: image.height, rgba: Buffer.from(image.pixels) };
}

/** Pixels within `tolerance` (per channel) of a colour ("#0072B2"), inside a box of the image. */
export function countColour(
  pixels: Pixels,
  hex: string,
  box: { x0?: number; x1?: number; y0?: number; y1?: number } = {},
  tolerance = 40,
): number {
  const target = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const { x0 = 0, x1 = pixels.width, y0 = 0, y1 = pixels.height } = box;
  let count = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const at = (y * pixels.width + x) * 4;
      if (target.every((c, k) => Math.abs((pixels.rgba[at + k] ?? 0) - c) <= tolerance)) count++;
    }
  }
  return count;
}

/** Where two images of one size differ by more than `tolerance` in some channel. */
export function differingPixels(
  a: Pixels,
  b: Pixels,
  tolerance = 24,
): { count: number; minX: number; maxX: number } {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`sizes differ: ${a.width}×${a.height} and ${b.width}×${b.height}`);
  }
  let count = 0;
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < a.rgba.length; i += 4) {
    for (let k = 0; k < 4; k++) {
      if (Math.abs((a.rgba[i + k] ?? 0) - (b.rgba[i + k] ?? 0)) > tolerance) {
        const x = (i / 4) % a.width;
        count++;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        break;
      }
    }
  }
  return { count, minX, maxX };
}
