import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";

// `npx tsx scripts/subset-chart-font.ts`: cuts the charts' font, assets/fonts/DejaVuSans-charts.ttf,
// from the whole DejaVu Sans in scripts/fonts/ (licence beside both). resvg reads the font file
// for every chart it draws, and the whole font is 760 kB of scripts no team or project name is
// written in; the cut keeps the ones that are. Needs fontTools (`apt install python3-fonttools`
// or `pip install fonttools`); PYTHON names another interpreter than python3.
// Run it after changing the ranges below, look at the charts, and commit the font (and the
// widths file it writes beside it, scripts/chart-font-widths.ts) with the change.

/** What names and the charts' own words are written in. */
const UNICODES = [
  "U+0020-007E", // Basic Latin
  "U+00A0-00FF", // Latin-1 Supplement (·, é, ß, ø, ×)
  "U+0100-024F", // Latin Extended-A and -B (Central European, Turkish, Romanian, Baltic)
  "U+02B0-02FF", // spacing modifier letters (ʻ, ˇ, ˚)
  "U+0300-036F", // combining marks, for names typed decomposed
  "U+0370-03FF", // Greek
  "U+0400-052F", // Cyrillic and its supplement
  "U+1E00-1EFF", // Latin Extended Additional (Vietnamese, Welsh)
  "U+2000-206F", // general punctuation: dashes, quotes, bullets, the ellipsis a cut title ends in
  "U+20A0-20BF", // currency signs
  "U+2100-214F", // letterlike symbols (№, ™)
  "U+2190-21FF", // arrows
  "U+2212,U+221E,U+2248,U+2260,U+2264,U+2265", // − ∞ ≈ ≠ ≤ ≥
  "U+25B2,U+25BC,U+25CF", // ▲ ▼ ●
  "U+FFFD", // the replacement character
].join(",");

const source = fileURLToPath(new URL("./fonts/DejaVuSans.ttf", import.meta.url));
const target = fileURLToPath(new URL("../assets/fonts/DejaVuSans-charts.ttf", import.meta.url));

execFileSync(
  process.env.PYTHON ?? "python3",
  [
    "-m",
    "fontTools.subset",
    source,
    `--unicodes=${UNICODES}`,
    `--output-file=${target}`,
    // Kerning and mark placement stay; resvg does not hint, so the hinting goes.
    "--layout-features=*",
    "--no-hinting",
    // The name table keeps its copyright and licence records.
    "--name-IDs=*",
    "--name-languages=*",
    "--notdef-outline",
  ],
  { stdio: "inherit" },
);
process.stdout.write(`wrote ${target} (${Math.round(statSync(target).size / 1024)} kB)\n`);
// The widths Vega lays chart text out by are the font's own: written again for the new cut.
await import("./chart-font-widths.js");
