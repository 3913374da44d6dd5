import { Resvg, type ResvgRenderOptions } from "@resvg/resvg-js";

// A chart's text set once per string, not once per chart. Each time resvg parses a <text> it
// shapes it and turns its glyphs into outlines: ~3 ms of a chart's ~20 ms of CPU, though a
// digest's charts share their axis labels, subtitle and threshold labels, and a burst of
// digests shares its dates. So the painter hands each SVG through here before resvg draws it:
// every <text> becomes the outlines resvg itself made of it (its `toString()` writes text as
// paths), remembered by the text's markup without its position; a label's white halo (the same
// text stroked) too, since every label is drawn twice. resvg still does all the
// shaping, in the same font; the pixels differ from its own drawing only by anti-aliasing
// (docs/performance.md, the charts' sixth stop).

/** How much outline markup an outliner keeps, in characters; the least recently used goes first. */
export const OUTLINES_KEPT_CHARS = 1_000_000;

type ResvgOptionsFont = NonNullable<ResvgRenderOptions["font"]>;

const TEXT_ELEMENT = /<text\b[^>]*>[\s\S]*?<\/text>/g;
const TRANSFORM = /\stransform="([^"]*)"/;
/** A text is outlined alone only when nothing it looks like comes from the groups around it. */
const SELF_STYLED = [/\sfont-family="/, /\sfont-size="/, /\sfill="/];
/**
 * Nor from elsewhere: a colour or definition (gradient, clip) it takes from around it, or an
 * id that could clash with the outlining's own groups.
 */
const NOT_ALONE = /url\(|currentColor|"inherit"|\sid="/;
const STROKED = /\sstroke="/;
/**
 * A stroked text (a label's halo) is outlined with its stroke when the stroke's colour, width
 * and corners are its own: round corners, so no miter limit set around it changes them.
 */
const SELF_STROKED = [
  /\sstroke="#[0-9a-f]{3,8}"/i,
  /\sstroke-width="/,
  /\sstroke-linejoin="round"/,
];
/** Vega keeps the labels it hides for overlapping as text at opacity 0: they draw nothing. */
const HIDDEN = /\sopacity="0"/;
const OUTLINE_GROUP = /<g id="text-(\d+)"\/?>/;

/** What becomes of a <text>: outlined (at the origin, then moved where it was), dropped, or left to resvg to set. */
type Text =
  | { kind: "outline"; atOrigin: string; transform: string | undefined }
  | { kind: "hidden" }
  | { kind: "leave" };

function textOf(element: string): Text {
  const self = element.slice(0, element.indexOf(">"));
  if (HIDDEN.test(self)) return { kind: "hidden" };
  if (NOT_ALONE.test(self) || !SELF_STYLED.every((attribute) => attribute.test(self))) {
    return { kind: "leave" };
  }
  if (STROKED.test(self) && !SELF_STROKED.every((attribute) => attribute.test(self))) {
    return { kind: "leave" };
  }
  const transform = TRANSFORM.exec(self);
  return transform
    ? { kind: "outline", atOrigin: element.replace(transform[0], ""), transform: transform[1] }
    : { kind: "outline", atOrigin: element, transform: undefined };
}

/**
 * A copy of a string that holds nothing else alive: a string cut from a larger one (a match in
 * a chart's SVG) can keep the whole of it in memory for as long as it is kept.
 */
function detached(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/**
 * Outlines of texts (each a <text> at the origin), by text, in one pass of resvg. A text that
 * draws nothing has no group in resvg's tree, and no outlines. Texts drawn through definitions
 * (which resvg would write to its <defs>) are kept as they are.
 */
function outlinesOf(texts: readonly string[], font: ResvgOptionsFont): Map<string, string> {
  const groups = texts.map((text, i) => `<g id="text-${i}">${text}</g>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">${groups}</svg>`;
  const tree = new Resvg(svg, { font }).toString();
  if (/<defs>/.test(tree)) return new Map(texts.map((text) => [text, text]));
  const outlines = new Map(texts.map((text) => [text, ""]));
  // The tree lists our groups in order, one after another, each closing before the next opens.
  const parts = tree
    .replace(/<\/svg>\s*$/, "")
    .replace(/>\s+</g, "><")
    .split(OUTLINE_GROUP);
  for (let i = 1; i < parts.length; i += 2) {
    const text = texts[Number(parts[i])];
    const inner = parts[i + 1] ?? "";
    const end = inner.lastIndexOf("</g>");
    if (text !== undefined && end >= 0) outlines.set(text, inner.slice(0, end));
  }
  return outlines;
}

/** Turns the text of SVGs into outlines, remembering each text's. */
export interface TextOutliner {
  /** The SVG with each of its self-styled <text> elements replaced by the same text's outlines. */
  outline(svg: string): string;
  /** How many texts it has outlined so far (each text it did not remember). */
  readonly outlined: number;
  /** The characters of outline markup it keeps now. */
  readonly keptChars: number;
}

/** An outliner that sets text in `font` (resvg's font options: the ones the chart is drawn with). */
export function textOutliner(
  font: ResvgOptionsFont,
  keepChars: number = OUTLINES_KEPT_CHARS,
): TextOutliner {
  // A Map iterates in insertion order: a text used again is moved to the end, so the front
  // holds the least recently used (a title seen once), which goes first.
  const kept = new Map<string, string>();
  let keptChars = 0;
  let outlined = 0;

  function keep(text: string, outline: string): void {
    const key = detached(text);
    kept.set(key, detached(outline));
    keptChars += key.length + outline.length;
    for (const [oldest, its] of kept) {
      if (keptChars <= keepChars) break;
      kept.delete(oldest);
      keptChars -= oldest.length + its.length;
    }
  }

  function recall(text: string): string | undefined {
    const outline = kept.get(text);
    if (outline !== undefined) {
      kept.delete(text);
      kept.set(text, outline);
    }
    return outline;
  }

  return {
    outline(svg) {
      const texts = [...svg.matchAll(TEXT_ELEMENT)].map(([element]) => textOf(element));
      const missing = new Set<string>();
      for (const text of texts) {
        if (text.kind === "outline" && !kept.has(text.atOrigin)) missing.add(text.atOrigin);
      }
      if (missing.size > 0) {
        outlined += missing.size;
        for (const [text, outline] of outlinesOf([...missing], font)) keep(text, outline);
      }
      let next = 0;
      return svg.replace(TEXT_ELEMENT, (element) => {
        const text = texts[next++];
        if (text?.kind === "hidden") return "";
        if (text?.kind !== "outline") return element;
        // A chart with more text than is kept may have pushed out its own: set as text.
        const outline = recall(text.atOrigin) ?? text.atOrigin;
        return text.transform === undefined
          ? outline
          : `<g transform="${text.transform}">${outline}</g>`;
      });
    },
    get outlined() {
      return outlined;
    },
    get keptChars() {
      return keptChars;
    },
  };
}
