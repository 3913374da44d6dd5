import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { Ledger, NewSlot } from "../../src/state/ledger.js";
import { type LedgerOptions, openLedger } from "../../src/state/sqlite/open-ledger.js";

/** A fresh temp dir per test, removed after it, with every ledger opened in it closed. */
export function useTempLedgers(): {
  dir: () => string;
  open: (path?: string, options?: LedgerOptions) => Ledger;
} {
  let dir: string | null = null;
  const opened: Ledger[] = [];
  afterEach(async () => {
    for (const ledger of opened.splice(0)) await ledger.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });
  const current = () => {
    dir ??= mkdtempSync(join(tmpdir(), "ledger-test-"));
    return dir;
  };
  return {
    dir: current,
    open: (path = join(current(), "state", "ledger.db"), options = {}) => {
      const ledger = openLedger(path, options);
      opened.push(ledger);
      return ledger;
    },
  };
}

/** A clock the test moves by hand. */
export function manualClock(startIso = "2026-11-16T08:00:00.000Z") {
  let now = Date.parse(startIso);
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export function aSlot(overrides: Partial<NewSlot> = {}): NewSlot {
  return {
    key: "checkout.daily.2026-11-15",
    team: "checkout",
    kind: "digest",
    job: "daily",
    fireAt: new Date("2026-11-16T08:00:00.000Z"),
    period: { start: "2026-11-15", end: "2026-11-15" },
    destinations: ["slack:C0123", "email:qa@example.com,b@example.com"],
    ...overrides,
  };
}

/** The pid of a process that has exited (pids are not reused this quickly). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  if (child.pid === undefined) throw new Error("could not start a child process");
  return child.pid;
}

/** Starts `node [args]` and resolves once it prints `line`; the caller kills it. */
export function startUntil(args: string[], line: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split("\n").includes(line)) resolve(child);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("exit", (code) =>
      reject(new Error(`child exited (${code}) before "${line}": ${err}`)),
    );
    child.on("error", reject);
  });
}

/** Resolves when the child has exited. */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}
