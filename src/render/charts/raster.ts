import { setImmediate as turnOfTheLoop } from "node:timers/promises";
import { Resvg, type ResvgRenderOptions } from "@resvg/resvg-js";
import { type PngRows, pngRows } from "./png.js";

// A chart's SVG drawn to PNG a stripe of rows at a time, from one parse of it. resvg draws a
// whole image into a pixmap of its own (1200 × 767 × 4 bytes, 3.7 MB, for a digest's chart,
// and as much again for each clipped group), copies it out for us, and we add a filter byte to
// each row: ~15 MB at once, on the chart worker's first chart the bulk of what a digest's charts
// add to the process (docs/performance.md, 2026-11-28). Cropping the parsed tree to a stripe
// (`cropByBBox` changes only its view box) and drawing that instead holds a stripe's worth of
// each, and the PNG is compressed as the stripes come (png.ts, `pngRows`).

/** Device rows drawn at a time: a pixmap of 1200 × 192 is 0.9 MB, a quarter of a digest's chart. */
export const STRIPE_ROWS = 192;

export interface RasterOptions {
  /** Device pixels of the PNG's width: the SVG is scaled to it. */
  width: number;
  /** An opaque colour: resvg's pixels are premultiplied, the same as PNG's straight RGBA only where opaque. */
  background: string;
  font: NonNullable<ResvgRenderOptions["font"]>;
  stripeRows?: number;
  /**
   * Called after each stripe is compressed, once nothing holds the stripe: the chart worker
   * collects V8's young generation there (chart-worker.ts), so that the stripe's pixels go
   * before the next stripe's are drawn.
   */
  betweenStripes?: () => void;
}

export interface Raster {
  png: Buffer;
  width: number;
  height: number;
}

const ROOT_SIZE = /^<svg\b[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"/;

/** The SVG as a PNG `options.width` device pixels wide, drawn in stripes of `stripeRows` rows. */
export async function rasterInStripes(svg: string, options: RasterOptions): Promise<Raster> {
  const tree = new Resvg(svg, {
    fitTo: { mode: "width", value: options.width },
    background: options.background,
    font: options.font,
  });
  const size = ROOT_SIZE.exec(svg);
  const bounds = tree.getBBox();
  const cssWidth = Number(size?.[1]);
  const cssHeight = Number(size?.[2]);
  if (!(bounds && cssWidth > 0 && cssHeight > 0)) throw new Error("the chart's SVG has no size");
  // As resvg scales an image to a width: its height rounded, and each axis scaled to fill the
  // pixels (so a stripe is mapped down as the whole image would be, not by the width's scale).
  const height = Math.round((cssHeight * options.width) / cssWidth);
  const scale = height / cssHeight;
  const stripeRows = options.stripeRows ?? STRIPE_ROWS;
  const png = pngRows(options.width, height);
  for (let top = 0; top < height; top += stripeRows) {
    const rows = Math.min(stripeRows, height - top);
    bounds.x = 0;
    bounds.y = top / scale;
    bounds.width = cssWidth;
    bounds.height = rows / scale;
    await drawStripe(tree, bounds, options.width, rows, png);
    options.betweenStripes?.();
    // The stripe's pixmap is freed by a finalizer that Node runs from the event loop once V8
    // has collected the stripe: a turn of the loop lets it go before the next is drawn.
    await turnOfTheLoop();
  }
  return { png: await png.end(), width: options.width, height };
}

/**
 * One stripe drawn and added to the PNG. A function of its own so that nothing refers to the
 * stripe once it returns: a collection then finds it dead, where one while the loop's body still
 * held it would keep it, and promote it to the old generation, which frees it only much later.
 */
async function drawStripe(
  tree: Resvg,
  bounds: NonNullable<ReturnType<Resvg["getBBox"]>>,
  width: number,
  rows: number,
  png: PngRows,
): Promise<void> {
  tree.cropByBBox(bounds);
  const stripe = tree.render();
  if (stripe.width !== width || stripe.height !== rows) {
    throw new Error(
      `resvg drew a stripe of ${stripe.width}×${stripe.height} pixels, not ${width}×${rows}`,
    );
  }
  // The copy of its pixels is ours, freed once compressed (free-bytes.ts).
  await png.add(stripe.pixels);
}
