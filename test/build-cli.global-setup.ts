import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleCli } from "../scripts/bundle-cli.js";

// The end-to-end tests run the CLI as users do, from `dist/`. Building it here, before any test
// file loads, means no test can pass against a build older than the source it is meant to test.
//
// `tsc -b` keeps a record of what it built (dist/build.tsbuildinfo) and compiles only the
// sources that changed since, so a run after `npm run build` (CI's `npm ci` runs it) or after
// an earlier run starts its tests at once instead of rebuilding all of src/ (~17 s on 2 cores).
// Two things `tsc -b` does not see are done here: an output deleted by hand (its record says
// it was built) forces a full build, and the output of a source deleted or renamed since is
// removed, so it cannot live on as a stale module. Then the CLI's bundle (dist/cli-bundle/, what
// dist/cli.js runs) is built again from the sources, as `npm run build` does.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SRC = join(ROOT, "src");
const DIST = join(ROOT, "dist");
/** The bundle's folder in dist/: its modules have no source of their own. */
const BUNDLE = "cli-bundle";

/** The module each source of src/ builds to, relative to dist/ (`a/b.ts` → `a/b.js`). */
function modules(): Set<string> {
  return new Set(
    readdirSync(SRC, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
      .map((name) => name.replace(/\.ts$/, ".js")),
  );
}

/** Deletes dist/'s modules (and their maps) whose source is gone, then the folders left empty. */
function removeStaleModules(current: Set<string>): void {
  const entries = readdirSync(DIST, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    const module = relative(DIST, path).replace(/\.map$/, "");
    if (module.startsWith(`${BUNDLE}/`)) continue;
    if (module.endsWith(".js") && !current.has(module)) rmSync(path);
  }
  // Deepest first, so a folder whose only content was an emptied folder goes too.
  const folders = entries
    .filter((e) => e.isDirectory())
    .map((e) => join(e.parentPath, e.name))
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) if (readdirSync(folder).length === 0) rmdirSync(folder);
}

export default async function buildCli(): Promise<void> {
  const current = modules();
  const missing = [...current].some((module) => !existsSync(join(DIST, module)));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(
    process.execPath,
    [tsc, "-b", "tsconfig.build.json", ...(missing && existsSync(DIST) ? ["--force"] : [])],
    { cwd: ROOT, stdio: "inherit" },
  );
  removeStaleModules(current);
  await bundleCli();
}
