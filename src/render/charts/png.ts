import { crc32, deflateSync } from "node:zlib";
import { freeBytes } from "./free-bytes.js";

// A PNG written from a chart's pixels with node:zlib instead of resvg's own encoder, which took
// twice as long for a larger file (docs/performance.md, the charts' third stop): RGBA, every
// scanline unfiltered, one IDAT compressed at level 3. A chart is flat colour on white, which deflate's
// fast levels (1–3) take well without filters; filters (Sub, Up) and RGB would each need a pass
// over every pixel in JavaScript that costs more than deflate saves, and levels 4 and up take
// twice as long again.

/**
 * Pixels to encode: RGBA, 8 bits a channel, row by row, not premultiplied. Pixels straight
 * from resvg are premultiplied, which is the same only where every pixel is opaque: draw them
 * on an opaque background.
 */
export interface RgbaImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const LEVEL = 3;
const BIT_DEPTH = 8;
const COLOUR_RGBA = 6;
const FILTER_NONE = 0;

/**
 * The image as a PNG file: lossless, its pixels exactly as given; at least 1×1 (PNG has no
 * empty image). Its own scanlines are freed with `free` once compressed.
 */
export function encodePng(image: RgbaImage, free: (bytes: Uint8Array) => void = freeBytes): Buffer {
  const { width, height, pixels } = image;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
    throw new RangeError(`a PNG is at least 1×1 pixels, not ${width}×${height}`);
  }
  const stride = width * 4;
  if (pixels.length !== stride * height) {
    throw new RangeError(`${pixels.length} bytes are not ${width}×${height} RGBA pixels`);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = BIT_DEPTH;
  header[9] = COLOUR_RGBA;
  const lines = scanlines(pixels, stride, height);
  const compressed = deflateSync(lines, { level: LEVEL });
  free(lines);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", compressed),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * The image as a PNG file, its pixels freed with `free` once encoded: for pixels nothing else
 * reads, such as the copy resvg hands out for each image.
 */
export function encodePngOfOwnPixels(
  image: RgbaImage,
  free: (bytes: Uint8Array) => void = freeBytes,
): Buffer {
  const png = encodePng(image, free);
  free(image.pixels);
  return png;
}

/** Each row of pixels after its filter byte, in a buffer of its own (never Node's pool of small ones). */
function scanlines(pixels: Uint8Array, stride: number, height: number): Buffer {
  const lines = Buffer.allocUnsafeSlow((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    lines[at] = FILTER_NONE;
    lines.set(pixels.subarray(y * stride, (y + 1) * stride), at + 1);
  }
  return lines;
}

/** A chunk: its length, type, data, and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, tail]);
}
