import { Resvg, type ResvgRenderOptions } from "@resvg/resvg-js";

// A chart's text set once per string, not once per chart. Each time resvg parses a <text> it
// shapes it and turns its glyphs into outlines: ~3 ms of a chart's ~20 ms of CPU, though a
// digest's charts share their axis labels, subtitle and threshold labels, and a burst of
// digests shares its dates. So the painter hands each SVG through here before resvg draws it:
// every <text> becomes the outlines resvg itself made of it (its `toString()` writes text as
// paths), remembered by the text's markup without its position. resvg still does all the
// shaping, in the same font, so the pixels are resvg's (docs/decisions/0006, sixth stop).

/** How many texts' outlines are kept; past it, the painter starts again from none. */
export const TEXTS_REMEMBERED = 500;

const TEXT_ELEMENT = /<text\b[^>]*>[\s\S]*?<\/text>/g;
const TRANSFORM = /\stransform="([^"]*)"/;
/** A text is outlined alone only when nothing it looks like comes from the groups around it. */
const SELF_STYLED = [/\sfont-family="/, /\sfont-size="/, /\sfill="/];
/** Nor from elsewhere in its SVG: a gradient, a clip, a filter it names. */
const REFERS = /url\(/;
/** Vega keeps the labels it hides for overlapping as text at opacity 0: they draw nothing. */
const HIDDEN = /\sopacity="0"/;
const OUTLINE_GROUP = /<g id="text-(\d+)">/;

/** What becomes of a <text>: outlined (at the origin, then moved where it was), dropped, or left to resvg to set. */
type Text =
  | { kind: "outline"; atOrigin: string; transform: string | undefined }
  | { kind: "hidden" }
  | { kind: "leave" };

function textOf(element: string): Text {
  const self = element.slice(0, element.indexOf(">"));
  if (HIDDEN.test(self)) return { kind: "hidden" };
  if (REFERS.test(self) || !SELF_STYLED.every((attribute) => attribute.test(self))) {
    return { kind: "leave" };
  }
  const transform = TRANSFORM.exec(self);
  return transform
    ? { kind: "outline", atOrigin: element.replace(transform[0], ""), transform: transform[1] }
    : { kind: "outline", atOrigin: element, transform: undefined };
}

/** Turns the text of SVGs into outlines, remembering each text's. */
export interface TextOutliner {
  /** The SVG with each of its self-styled <text> elements replaced by the same text's outlines. */
  outline(svg: string): string;
  /** How many texts' outlines are kept now. */
  readonly remembered: number;
}

/** An outliner that sets text in `font` (resvg's font options: the ones the chart is drawn with). */
export function textOutliner(font: NonNullable<ResvgRenderOptions["font"]>): TextOutliner {
  const outlines = new Map<string, string>();

  /** Outlines the texts (each a <text> at the origin) in one pass of resvg, and keeps them. */
  function outlineAll(texts: readonly string[]): void {
    const groups = texts.map((text, i) => `<g id="text-${i}">${text}</g>`).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1">${groups}</svg>`;
    const tree = new Resvg(svg, { font }).toString();
    // Anything drawn through definitions (a gradient, a clip) is left as text for resvg.
    const plain = /<defs\/>/.test(tree) && !/<defs>/.test(tree);
    // A text that draws nothing has no group in the tree: its outlines are nothing.
    for (const text of texts) outlines.set(text, plain ? "" : text);
    if (!plain) return;
    // The tree lists our groups in order, one after another, each closing before the next opens.
    const parts = tree
      .replace(/<\/svg>\s*$/, "")
      .replace(/>\s+</g, "><")
      .split(OUTLINE_GROUP);
    for (let i = 1; i < parts.length; i += 2) {
      const text = texts[Number(parts[i])];
      const inner = parts[i + 1] ?? "";
      if (text !== undefined) outlines.set(text, inner.slice(0, inner.lastIndexOf("</g>")));
    }
  }

  return {
    outline(svg) {
      const texts = [...svg.matchAll(TEXT_ELEMENT)].map(([element]) => textOf(element));
      if (outlines.size + texts.length > TEXTS_REMEMBERED) outlines.clear();
      const missing = new Set<string>();
      for (const text of texts) {
        if (text.kind === "outline" && !outlines.has(text.atOrigin)) missing.add(text.atOrigin);
      }
      if (missing.size > 0) outlineAll([...missing]);
      let next = 0;
      return svg.replace(TEXT_ELEMENT, (element) => {
        const text = texts[next++];
        if (text?.kind === "hidden") return "";
        if (text?.kind !== "outline") return element;
        const outline = outlines.get(text.atOrigin) ?? text.atOrigin;
        return text.transform === undefined
          ? outline
          : `<g transform="${text.transform}">${outline}</g>`;
      });
    },
    get remembered() {
      return outlines.size;
    },
  };
}
