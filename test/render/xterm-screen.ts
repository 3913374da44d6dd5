import xterm from "@xterm/headless";

// The width is measured by a real terminal emulator, not by the code's own measure: a renderer
// that counted "日本語" as 3 columns would pass a test that counted the same way.

/** Writes `text` into an xterm of `cols` columns; returns each row it shows, and which rows wrapped. */
export async function showInTerminal(
  text: string,
  cols: number,
): Promise<{ rows: string[][]; wrapped: number[] }> {
  const term = new xterm.Terminal({ cols, rows: 500, allowProposedApi: true });
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
