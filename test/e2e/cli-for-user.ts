import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI } from "./run-cli.js";

// Root meets file modes only through another user, but that user may not be able to read the
// checkout at all: a clone in `mktemp -d` (mode 700) is its owner's alone. Then the CLI is run
// from a copy anyone can read: dist/, package.json, config/ and the production packages, hard
// links where the file system allows (instant), copies where it does not.

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export type UserCli =
  | { cli: string; remove: () => void }
  | { cli: null; reason: string; remove: () => void };

/** A path of the built CLI that `user` can run, or why there is none. */
export function cliFor(user: { uid: number; gid: number }): UserCli {
  if (runsAs(user, CLI)) return { cli: CLI, remove: () => {} };
  const copy = mkdtempSync(join(tmpdir(), "insights-reporter-cli-"));
  chmodSync(copy, 0o755);
  const remove = () => rmSync(copy, { recursive: true, force: true });
  for (const path of ["package.json", "dist", "config", ...productionPackages()]) {
    mirror(join(ROOT, path), join(copy, path));
  }
  const cli = join(copy, relative(ROOT, CLI));
  if (runsAs(user, cli)) return { cli, remove };
  return {
    cli: null,
    reason: `uid ${user.uid} can read neither the checkout nor ${copy} (is ${tmpdir()} closed to it?)`,
    remove,
  };
}

function runsAs(user: { uid: number; gid: number }, cli: string): boolean {
  const probe = spawnSync(process.execPath, [cli, "--version"], { ...user, cwd: "/" });
  return !probe.error && probe.status === 0;
}

/** The folders under ROOT of the packages the CLI loads: its dependencies, transitively. */
function productionPackages(): string[] {
  const found = new Set<string>();
  const visit = (dir: string) => {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const names = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
    for (const name of names) {
      const at = resolvePackage(name, dir);
      if (at === undefined || found.has(at)) continue; // seen, or an optional one not installed
      found.add(at);
      visit(at);
    }
  };
  visit(ROOT);
  return [...found].map((dir) => relative(ROOT, dir));
}

/** Node's lookup: node_modules/<name> in `from`, then in each folder above it up to ROOT. */
function resolvePackage(name: string, from: string): string | undefined {
  for (let dir = from; dir.startsWith(ROOT); dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === dirname(dir)) break;
  }
  return undefined;
}

/** `from` at `to`, readable by all; a package's own node_modules comes as a package of its own. */
function mirror(from: string, to: string): void {
  const stat = lstatSync(from, { throwIfNoEntry: false });
  if (stat === undefined) return;
  openFolder(dirname(to));
  if (stat.isSymbolicLink()) {
    symlinkSync(readlinkSync(from), to);
  } else if (stat.isDirectory()) {
    openFolder(to);
    for (const name of readdirSync(from)) {
      if (name !== "node_modules") mirror(join(from, name), join(to, name));
    }
  } else if (stat.mode & 0o004) {
    try {
      linkSync(from, to); // the same file, already readable by all
    } catch {
      copyFileSync(from, to); // another file system, or links refused
      chmodSync(to, stat.mode & 0o777);
    }
  } else {
    copyFileSync(from, to); // a checkout made under umask 077: a copy others may read
    chmodSync(to, (stat.mode & 0o777) | 0o444 | (stat.mode & 0o100 ? 0o111 : 0));
  }
}

/** Makes `dir` and the folders above it that are missing, each open to all (whatever the umask). */
function openFolder(dir: string): void {
  if (existsSync(dir)) return;
  openFolder(dirname(dir));
  mkdirSync(dir);
  chmodSync(dir, 0o755);
}
