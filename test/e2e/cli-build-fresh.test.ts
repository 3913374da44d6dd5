import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The end-to-end tests spawn dist/cli.js. This pins down that what they run is the source as
// it is now: every module of src/ has a build no older than itself, and dist/ holds nothing
// that src/ no longer has.

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
    const sources = files(src, ".ts").map((f) => relative(src, f).replace(/\.ts$/, ".js"));
    const built = files(dist, ".js").map((f) => relative(dist, f));
    expect(built.sort()).toEqual(sources.sort());
    for (const module of sources) {
      const source = statSync(join(src, module.replace(/\.js$/, ".ts"))).mtimeMs;
      expect(statSync(join(dist, module)).mtimeMs, module).toBeGreaterThanOrEqual(source);
    }
  });
});
