import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The end-to-end tests spawn dist/cli.js. This pins down that what they run is the source as
// it is now: dist/ holds a module for every source of src/ and nothing that src/ no longer has,
// and the build that made them ran after each source's last change. That build is `tsc -b`,
// which writes its record (dist/build.tsbuildinfo) at the end of every build; a source saved
// again with the same text gets that record refreshed, not its module rewritten, so the record
// is the time to compare with. dist/cli.js itself runs the bundle built from those sources
// (scripts/bundle-cli.ts, dist/cli-bundle/), after them.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function files(dir: string, ending: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(ending))
    .map((name) => join(dir, name));
}

describe("the CLI the end-to-end tests run", () => {
  it("is built from the current source, module for module", () => {
    const src = join(ROOT, "src");
    const dist = join(ROOT, "dist");
    // A declaration file (`*.d.ts`) describes a library's part; it builds to no module.
    const sources = files(src, ".ts")
      .filter((f) => !f.endsWith(".d.ts"))
      .map((f) => relative(src, f).replace(/\.ts$/, ".js"));
    const built = files(dist, ".js")
      .map((f) => relative(dist, f))
      .filter((f) => !f.startsWith("cli-bundle/"));
    expect(built.sort()).toEqual(sources.sort());
    const builtAt = statSync(join(dist, "build.tsbuildinfo")).mtimeMs;
    for (const module of sources) {
      const source = statSync(join(src, module.replace(/\.js$/, ".ts"))).mtimeMs;
      expect(builtAt, module).toBeGreaterThanOrEqual(source);
    }
  });

  it("runs the bundle, built after tsc's modules", () => {
    const dist = join(ROOT, "dist");
    expect(readFileSync(join(dist, "cli.js"), "utf8")).toContain("import './cli-bundle/cli.js';");
    const bundledAt = statSync(join(dist, "cli-bundle", "cli.js")).mtimeMs;
    expect(bundledAt).toBeGreaterThanOrEqual(statSync(join(dist, "build.tsbuildinfo")).mtimeMs);
  });
});
