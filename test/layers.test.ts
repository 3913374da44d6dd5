import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The folders of src/ import only downward, type-only imports included, so a newcomer can read
// the tree from the CLI down to the shared vocabulary without a loop. Same-rank folders do not
// import each other either.

const SRC = fileURLToPath(new URL("../src", import.meta.url));

const LAYERS: readonly (readonly string[])[] = [
  ["cli"],
  ["commands"],
  ["daemon"],
  ["run-digest", "run-alert"],
  ["create-deps"],
  ["render"],
  ["report", "config"],
  ["alerts", "insights", "deliver"],
  ["schedule", "periods", "state"],
  ["errors", "logger", "secret", "messages"],
];
const RANK = new Map(LAYERS.flatMap((units, rank) => units.map((unit) => [unit, rank] as const)));

/** The top-level unit of a path under src/: its folder, or its file name without `.ts`/`.js`. */
function unitOf(path: string): string {
  const [first = ""] = relative(SRC, path).split(/[\\/]/);
  return first.replace(/\.(ts|js)$/, "");
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(SRC, name));
}

/** Every relative import or re-export of a file, resolved to a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:import|export)[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gs)];
  return specs.map((m) => normalize(join(dirname(file), m[1] ?? "")));
}

describe("the folders of src/", () => {
  it("each belong to a layer", () => {
    const unknown = [...new Set(sourceFiles().map(unitOf))].filter((unit) => !RANK.has(unit));
    expect(unknown).toEqual([]);
  });

  it("import only from layers below their own", () => {
    const upward: string[] = [];
    for (const file of sourceFiles()) {
      const from = unitOf(file);
      for (const target of importsOf(file)) {
        const to = unitOf(target);
        if (to === from) continue;
        if ((RANK.get(to) ?? -1) <= (RANK.get(from) ?? -1)) {
          upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });
});
