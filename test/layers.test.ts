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
  ["slack-app"],
  ["scheduler"],
  ["ops"],
  ["pipeline"],
  ["create-deps"],
  ["create-read-clients"],
  ["chart-painter", "redact-errors"],
  ["config"],
  ["destinations"],
  ["render"],
  ["report"],
  ["alerts", "insights", "deliver"],
  ["timetable", "periods", "state"],
  [
    "errors",
    "logger",
    "secret",
    "secret-text",
    "messages",
    "retry-policy",
    "read-start",
    "compiler-tuning",
  ],
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

/**
 * Every relative import of a file's text, resolved against its path: static imports and
 * re-exports, and lazy `import("…")`s, which load the same module a moment later.
 */
function importsIn(text: string, file: string): string[] {
  const statics = text.matchAll(/(?:import|export)[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gs);
  const lazies = text.matchAll(/\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g);
  return [...statics, ...lazies].map((m) => normalize(join(dirname(file), m[1] ?? "")));
}

const importsOf = (file: string): string[] => importsIn(readFileSync(file, "utf8"), file);

describe("the imports read", () => {
  it("are static, re-exported and lazy, each resolved against the file", () => {
    const file = join(SRC, "commands", "some-command.ts");
    const text = [
      'import { a } from "../config/load-config.js";',
      'import type { B } from "./b.js";',
      'export { c } from "../state/c.js";',
      'const { d } = await import("../daemon/d.js");',
      'const e = await import(\n  "../cli.js"\n);',
      'const pkg = await import("undici");',
    ].join("\n");
    expect(importsIn(text, file).map((path) => relative(SRC, path))).toEqual([
      join("config", "load-config.js"),
      join("commands", "b.js"),
      join("state", "c.js"),
      join("daemon", "d.js"),
      "cli.js",
    ]);
  });
});

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
