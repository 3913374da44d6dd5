import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";

// `npx tsx scripts/chart-font-widths.ts`: writes the advance width of every character of the
// charts' font (assets/fonts/DejaVuSans-charts.ttf) to DejaVuSans-charts.widths.json beside it,
// which Vega lays chart text out by (src/render/charts/text-width.ts). Run it whenever the font
// changes (scripts/subset-chart-font.ts runs it). Needs fontTools, as the subset script does
// (`apt install python3-fonttools`); PYTHON names another interpreter than python3.

const font = fileURLToPath(new URL("../assets/fonts/DejaVuSans-charts.ttf", import.meta.url));
const target = fileURLToPath(
  new URL("../assets/fonts/DejaVuSans-charts.widths.json", import.meta.url),
);

const DUMP = `
import json, sys
from fontTools.ttLib import TTFont
font = TTFont(sys.argv[1])
hmtx = font["hmtx"]
advances = {str(cp): hmtx[glyph][0] for cp, glyph in sorted(font.getBestCmap().items())}
with open(sys.argv[2], "w") as out:
    json.dump({"unitsPerEm": font["head"].unitsPerEm, "notdef": hmtx[".notdef"][0], "advances": advances}, out, separators=(",", ":"))
    out.write("\\n")
`;

execFileSync(process.env.PYTHON ?? "python3", ["-c", DUMP, font, target], { stdio: "inherit" });
process.stdout.write(`wrote ${target} (${Math.round(statSync(target).size / 1024)} kB)\n`);
