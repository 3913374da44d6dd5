import { crc32, createDeflate, deflateSync } from "node:zlib";
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
  const lines = scanlines(pixels, stride, height);
  const compressed = deflateSync(lines, { level: LEVEL });
  free(lines);
  return pngFile(width, height, compressed);
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

/**
 * The last image's scanline buffer (0.9 MB for a digest's chart), kept for the next image's
 * stripes for as long as the thread lives: on Node 20, a buffer an image would wait for V8's
 * collector, and in the chart worker, which collects its young generation after each stripe
 * (chart-worker.ts), it would outlive those collections and be moved to the old generation,
 * which only a full collection frees.
 */
let spareLines: Buffer | undefined;

/** A PNG written a stripe of rows at a time, so that no copy of the whole image is ever held. */
export interface PngRows {
  /** Adds the next rows (RGBA, as `encodePng` takes them), freed with `free` once compressed. */
  add(pixels: Uint8Array): Promise<void>;
  /** The PNG file, once every row has been added. */
  end(): Promise<Buffer>;
}

/**
 * A PNG of `width × height` pixels whose rows come in stripes (from resvg drawing one stripe
 * of a chart at a time): each stripe's scanlines are compressed and freed before the next is
 * drawn, where `encodePng` needs the whole image and a copy of it at once. The same deflate
 * stream at the same level, so the same file.
 */
export function pngRows(
  width: number,
  height: number,
  free: (bytes: Uint8Array) => void = freeBytes,
): PngRows {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
    throw new RangeError(`a PNG is at least 1×1 pixels, not ${width}×${height}`);
  }
  const stride = width * 4;
  const deflate = createDeflate({ level: LEVEL });
  const compressed: Buffer[] = [];
  deflate.on("data", (part: Buffer) => compressed.push(part));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.once("end", resolve);
    deflate.once("error", reject);
  });
  let rows = 0;
  let lines: Buffer | undefined = spareLines;
  spareLines = undefined;
  return {
    async add(pixels) {
      const added = pixels.length / stride;
      if (!Number.isInteger(added) || rows + added > height) {
        throw new RangeError(`${pixels.length} bytes are not rows of ${width} RGBA pixels left`);
      }
      // One buffer of scanlines for every stripe, as large as the largest: on Node 20, where
      // a buffer cannot be freed before V8 collects it (free-bytes.ts), one a stripe would pile up.
      if (!lines || lines.length < (stride + 1) * added) {
        if (lines) free(lines);
        lines = Buffer.allocUnsafeSlow((stride + 1) * added);
      }
      const written = scanlines(pixels, stride, added, lines);
      free(pixels);
      rows += added;
      // Written before the next stripe reuses the buffer.
      await new Promise<void>((resolve, reject) =>
        deflate.write(written, (error) => (error ? reject(error) : resolve())),
      );
    },
    async end() {
      if (rows !== height) throw new RangeError(`${rows} rows of a ${height}-row PNG were added`);
      deflate.end();
      await ended;
      // Kept for the next image's stripes, unless another image's is kept already.
      if (lines && !spareLines) spareLines = lines;
      else if (lines) free(lines);
      lines = undefined;
      return pngFile(width, height, Buffer.concat(compressed));
    },
  };
}

/** The file around an image's compressed scanlines. */
function pngFile(width: number, height: number, compressed: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = BIT_DEPTH;
  header[9] = COLOUR_RGBA;
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", compressed),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * Each row of pixels after its filter byte, at the start of `into` or in a buffer of its own
 * (never Node's pool of small ones).
 */
function scanlines(
  pixels: Uint8Array,
  stride: number,
  height: number,
  into: Buffer = Buffer.allocUnsafeSlow((stride + 1) * height),
): Buffer {
  const lines = into.subarray(0, (stride + 1) * height);
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
