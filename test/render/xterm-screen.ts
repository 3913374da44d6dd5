import xterm from "@xterm/headless";

// The width is measured by a real terminal emulator, not by the code's own measure: a renderer
// that counted "日本語" as 3 columns would pass a test that counted the same way.
//
// xterm.js alone measures by Unicode 6, where an emoji such as 🚀 takes one column; every
// terminal a user runs the preview in (VS Code's xterm.js with its Unicode 11 addon, iTerm2,
// GNOME's VTE, Windows Terminal, kitty, tmux) gives it two, as Unicode 9 and later do. So the
// terminal here keeps xterm's own widths and adds that one rule (UAX #11: an Emoji_Presentation
// character is wide), the way xterm's Unicode 11 addon does.

const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/u;

type Provider = {
  version: string;
  wcwidth(codepoint: number): 0 | 1 | 2;
  charProperties(codepoint: number, preceding: number): number;
};

/** xterm's own Unicode 6 widths, with emoji wide as in Unicode 9 and later. */
function modernWidths(term: xterm.Terminal): Provider {
  // xterm.js exposes no provider but the active version's name; its Unicode 6 one is internal.
  const core = (
    term as unknown as { _core?: { unicodeService?: { _providers?: Record<string, Provider> } } }
  )._core;
  const v6 = core?.unicodeService?._providers?.["6"];
  if (!v6) throw new Error("@xterm/headless changed: its Unicode 6 width provider is not found");
  const wcwidth = (codepoint: number): 0 | 1 | 2 =>
    EMOJI_PRESENTATION.test(String.fromCodePoint(codepoint)) ? 2 : v6.wcwidth(codepoint);
  return {
    version: "6+emoji",
    wcwidth,
    // xterm's own joining rule (its Unicode 6 provider's), over these widths: a zero-width
    // character joins the one before and takes its width.
    charProperties(codepoint, preceding) {
      let width: number = wcwidth(codepoint);
      let join = width === 0 && preceding !== 0;
      if (join) {
        const before = (preceding >> 1) & 3;
        if (before === 0) join = false;
        else if (before > width) width = before;
      }
      return ((width & 3) << 1) | (join ? 1 : 0);
    },
  };
}

/** Writes `text` into an xterm of `cols` columns; returns each row it shows, and which rows wrapped. */
export async function showInTerminal(
  text: string,
  cols: number,
): Promise<{ rows: string[][]; wrapped: number[] }> {
  const term = new xterm.Terminal({ cols, rows: 500, allowProposedApi: true });
  const widths = modernWidths(term);
  term.unicode.register(widths);
  term.unicode.activeVersion = widths.version;
  await new Promise<void>((resolve) => term.write(text.replaceAll("\n", "\r\n"), resolve));
  const buffer = term.buffer.active;
  // Each row as its cells: a wide character fills one cell and leaves the next "".
  const rows: string[][] = [];
  const wrapped: number[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    rows.push(Array.from({ length: cols }, (_, x) => line.getCell(x)?.getChars() ?? ""));
    if (line.isWrapped) wrapped.push(y);
  }
  term.dispose();
  return { rows, wrapped };
}
