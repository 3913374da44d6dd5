import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach } from "vitest";
import type { DigestConfig, Team } from "../../src/config/types.js";
import { deliverAll } from "../../src/deliver/deliver-all.js";
import { createLogger } from "../../src/logger.js";
import { digestSlot } from "../../src/pipeline/digest/digest-slot.js";
import { keyForFire, listJobs } from "../../src/scheduler/jobs.js";
import {
  createDaemon,
  type Daemon,
  type DaemonOptions,
  type RunSlot,
} from "../../src/scheduler/scheduler.js";
import type { Ledger } from "../../src/state/ledger.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";

/**
 * The scheduler in-process with a clock the test moves: a real ledger in a temp dir, a real
 * deliverAll, and a runner whose destinations succeed or fail as the test says — so slot,
 * catch-up, DST and retry behaviour are checked through `daemon.tick()`, not just the planner.
 */

export function aDigest(overrides: Partial<DigestConfig> = {}): DigestConfig {
  return {
    name: "daily",
    schedule: "0 9 * * *",
    period: "previous_day",
    compareTo: "previous_period",
    catchUpMs: 6 * 3_600_000,
    minChangePp: 0.5,
    charts: null,
    slack: { channel: "C0123ABCD", attachXlsx: false },
    email: null,
    msteams: null,
    webhook: null,
    pagerduty: null,
    ...overrides,
  };
}

export function aTeam(overrides: Partial<Team> = {}): Team {
  return {
    name: "checkout",
    title: "Checkout squad",
    timezone: "Europe/Berlin",
    weekStartsOn: 1,
    dashboardUrl: null,
    projects: [{ id: "pdqmxlz", name: null, branch: null, author: null, tags: [], owners: [] }],
    digests: [aDigest()],
    alerts: [],
    alertActors: null,
    ...overrides,
  };
}

export interface Run {
  job: string;
  fire: Date;
  key: string;
  /** The harness clock when the run started. */
  startedAt: Date;
}

export interface RunnerOptions {
  /** Destination ids each slot delivers to (default one Slack channel). */
  destinations?: string[];
  /** Whether this attempt (1-based, per slot and destination) of `destination` fails. */
  fails?: (destination: string, attempt: number) => boolean;
  /** Each run waits for this before delivering. */
  gate?: () => Promise<void>;
}

/** A runner that records its runs and delivers through the real deliverAll and ledger. */
export function recordingRunner(now: () => Date, options: RunnerOptions = {}) {
  const runs: Run[] = [];
  const attempts = new Map<string, number>();
  const destinations = options.destinations ?? ["slack:C0123ABCD"];
  const runSlot: RunSlot = async (job, fire, context) => {
    if (job.kind !== "digest") throw new Error("recordingRunner runs digests only");
    const { key, periods } = digestSlot({ team: job.team, digest: job.digest, fireAt: fire });
    runs.push({ job: job.id, fire, key, startedAt: now() });
    await context.ledger.recordSlot({
      key,
      team: job.team.name,
      kind: job.kind,
      job: job.name,
      fireAt: fire,
      period: periods.current,
      destinations,
    });
    await options.gate?.();
    const jobs = destinations.map((id) => ({
      id,
      send: async () => {
        const attempt = (attempts.get(`${key} ${id}`) ?? 0) + 1;
        attempts.set(`${key} ${id}`, attempt);
        if (options.fails?.(id, attempt)) throw new Error(`${id} refused attempt ${attempt}`);
        return { ref: `${attempt}.000100` };
      },
    }));
    const deliveries = await deliverAll(key, jobs, context);
    return { key, deliveries };
  };
  return { runSlot, runs };
}

/** Log lines as parsed JSON, for asserting what the daemon said. */
export function captureLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split("\n")) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { lines, logger: createLogger({ destination: sink, pretty: false, level: "debug" }) };
}

export interface Harness {
  daemon: Daemon;
  ledger: Ledger;
  runs: Run[];
  logs: Array<Record<string, unknown>>;
  now: () => Date;
  /** Sets the clock, ticks once, and waits for the runs it started. */
  tickAt(instant: Date | string): Promise<void>;
  /** Sets the clock and ticks once, leaving what it started running. */
  tickOnly(instant: Date | string): Promise<void>;
  /** Ticks every `stepMs` from `from` to `to` inclusive. */
  tickEvery(from: string, to: string, stepMs: number): Promise<void>;
}

/** Temp dirs of the harnesses of one test file, removed after each test. */
export function useHarness(): (
  teams: Team[],
  options?: RunnerOptions & { start?: string; ledgerDir?: string } & Partial<DaemonOptions>,
) => Promise<Harness> {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (teams, options = {}) => {
    let now = Date.parse(options.start ?? "2026-06-10T06:00:00Z");
    const clock = () => new Date(now);
    let dir = options.ledgerDir;
    if (!dir) {
      const made = mkdtempSync(join(tmpdir(), "daemon-test-"));
      cleanups.push(() => rmSync(made, { recursive: true, force: true }));
      dir = made;
    }
    const ledger = openLedger(join(dir, "ledger.sqlite"), { now: clock });
    cleanups.push(() => ledger.close());
    await ledger.acquireDaemonLease("test daemon");
    const { runSlot, runs } = recordingRunner(clock, options);
    const { lines, logger } = captureLogs();
    const daemon = createDaemon({
      jobs: listJobs(teams),
      ledger,
      runSlot,
      logger,
      now: clock,
      ...options,
    });
    cleanups.push(async () => {
      void daemon.stop(0);
      await ledger.releaseLease();
    });
    const tickOnly = (instant: Date | string) => {
      now = typeof instant === "string" ? Date.parse(instant) : instant.getTime();
      return daemon.tick();
    };
    const tickAt = async (instant: Date | string) => {
      await tickOnly(instant);
      await daemon.idle();
    };
    return {
      daemon,
      ledger,
      runs,
      logs: lines,
      now: clock,
      tickAt,
      tickOnly,
      async tickEvery(from, to, stepMs) {
        for (let t = Date.parse(from); t <= Date.parse(to); t += stepMs) await tickAt(new Date(t));
      },
    };
  };
}

export { keyForFire };
