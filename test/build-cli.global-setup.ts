import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

// The end-to-end tests run the CLI as users do, from `dist/`. Building it here, before any test
// file loads, means no test can pass against a build older than the source it is meant to test.

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export default function buildCli(): void {
  // A fresh dist: a file deleted or renamed in src/ must not live on as a stale module.
  rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: ROOT,
    stdio: "inherit",
  });
}
