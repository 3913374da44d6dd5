import stringWidth from "string-width";

/**
 * A command's output as the lines it meant, for tests that match a line whole. A line too wide
 * for the terminal is broken between words (`fitLine`, `wrap`), each following part indented
 * two more than the line's start; such a part is joined back with a space. A line is taken for
 * a part only where the one before could not have held its first word, so a line indented under
 * a short one (`run`'s "  ✓ slack:… sent" under its key) stays a line of its own. `width` is the
 * one the command fitted to: 80 when its output is piped, as in every test that spawns it.
 */
export function unwrapLines(text: string, width = 80): string {
  const lines: string[] = [];
  let start = "";
  let previous: string | null = null;
  for (const line of text.split("\n")) {
    const indent = /^ */.exec(line)?.[0] ?? "";
    const words = line.slice(indent.length);
    const first = words.split(" ")[0] ?? "";
    const goesOn =
      previous !== null &&
      words !== "" &&
      indent === `${start}  ` &&
      stringWidth(`${previous} ${first}`) > width;
    if (goesOn) {
      lines.push(`${lines.pop() ?? ""} ${words}`);
    } else {
      lines.push(line);
      start = indent;
    }
    previous = line;
  }
  return lines.join("\n");
}
