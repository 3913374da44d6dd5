import { type ChildProcess, execFile } from "node:child_process";
import { chown, mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { findPostgresBinaries, type ServerUser, serverUser } from "./postgres-binaries.js";
import { startWatchdog } from "./postgres-watchdog.js";

/**
 * A real PostgreSQL server for tests: `initdb` in a fresh temporary directory, started with
 * `pg_ctl` on a free loopback port, every local connection trusted, durability off for speed.
 * Not a mock: the code under test speaks PostgreSQL's protocol to it over TCP.
 */

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the superuser, no password. */
  url: string;
  port: number;
  /** The server's directory (`data/`, `socket/`, `server.log`); `stop` removes it. */
  dir: string;
  /** Creates an empty database, named `test_<n>` unless given, and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Runs `sql` with psql in `database` (default postgres): rows one a line, columns `|`-separated. */
  psql(sql: string, database?: string): Promise<string>;
  /** Stops the server and keeps its data, for an outage; `immediate` is a crash (no checkpoint). */
  stopServer(mode?: "fast" | "immediate"): Promise<void>;
  /** Starts it again after `stopServer`: same port, same data. */
  startServer(): Promise<void>;
  /** Stops the server for good and removes its directory. */
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** More server settings, as `-c name=value`: `{ max_connections: "20" }`. */
  settings?: Record<string, string>;
  /** Where to look for initdb on PATH (default process.env). */
  env?: NodeJS.ProcessEnv;
}

// Durability off where only a power cut would tell: nothing waits for the disk. A commit still
// reaches the kernel before it is acknowledged (synchronous_commit stays on), so a server
// killed mid-test (an immediate stop, SIGKILL) keeps it, as a real one would; with it off, the
// last commits are lost in such a crash. The zone is far from UTC, as in vitest.config, so a
// date taken in the server's zone instead of UTC shows up as a shifted day.
const SETTINGS: Record<string, string> = {
  fsync: "off",
  full_page_writes: "off",
  timezone: "Pacific/Kiritimati",
};

/** Starts a server of its own; `stop` it when done (a dead test process stops it within 1 s). */
export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBinaries(options.env);
  const user = serverUser();
  const dir = await mkdtemp(join(tmpdir(), "insights-pg-"));
  const data = join(dir, "data");
  const socket = join(dir, "socket");
  const log = join(dir, "server.log");
  const settings = { ...SETTINGS, ...options.settings };
  const asServer = { cwd: dir, ...(user ? { uid: user.uid, gid: user.gid } : {}) };
  const pgCtl = (...args: string[]) => run(bin.pgCtl, args, asServer);
  const start = (port: number) =>
    pgCtl("start", "-D", data, "-l", log, "-w", "-o", serverArgs(port, socket, settings)).catch(
      async (error: Error) => {
        const tail = (await readFile(log, "utf8").catch(() => "")).trim().split("\n").slice(-5);
        throw new Error(`${error.message}\n${log}:\n${tail.join("\n")}`);
      },
    );

  let watchdog: ChildProcess | undefined;
  let port: number;
  try {
    await mkdir(socket);
    if (user) await handOver(dir, socket, user);
    watchdog = await startWatchdog({ pgCtl: bin.pgCtl, dir, data, asServer });
    await run(bin.initdb, initdbArgs(data), asServer);
    port = await startOnFreePort(start, log);
  } catch (error) {
    watchdog?.kill();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  let running = true;
  let created = 0;
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const psql = async (sql: string, database = "postgres") => {
    const args = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", urlOf(database)];
    return (await run(bin.psql, [...args, "-c", sql], {})).replace(/\n$/, "");
  };
  const stopServer = async (mode: "fast" | "immediate" = "fast") => {
    if (!running) return;
    await pgCtl("stop", "-D", data, "-m", mode, "-w");
    running = false;
  };

  return {
    url: urlOf("postgres"),
    port,
    dir,
    psql,
    async createDatabase(name = `test_${++created}`) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      await psql(`CREATE DATABASE ${name}`);
      return urlOf(name);
    },
    stopServer,
    async startServer() {
      if (running) return;
      await start(port);
      running = true;
    },
    async stop() {
      await stopServer("fast").catch(() => stopServer("immediate"));
      await rm(dir, { recursive: true, force: true });
      watchdog?.kill();
    },
  };
}

function initdbArgs(data: string): string[] {
  const cluster = ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C"];
  return [...cluster, "--no-sync", "--no-instructions"];
}

/** The `-o` options of `pg_ctl start`, a string its shell splits: every value quoted. */
function serverArgs(port: number, socket: string, settings: Record<string, string>): string {
  const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
  const all = { ...settings, listen_addresses: "127.0.0.1" };
  const each = Object.entries(all).map(([name, value]) => `-c ${name}=${quote(value)}`);
  return [`-k ${quote(socket)}`, `-p ${port}`, ...each].join(" ");
}

/** Starts on a free port; another process may take it before the server binds, so up to 3 tries. */
async function startOnFreePort(start: (port: number) => Promise<unknown>, log: string) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await start(port);
      return port;
    } catch (error) {
      const taken = (await readFile(log, "utf8").catch(() => "")).includes("already in use");
      if (!taken || attempt === 3) throw error;
    }
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** Gives the directory to the server's user, who must be able to reach it from /. */
async function handOver(dir: string, socket: string, user: ServerUser): Promise<void> {
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    const { mode, uid } = await stat(parent);
    if (uid !== user.uid && (mode & 0o001) === 0) {
      throw new Error(
        `${parent} cannot be entered by ${user.name}, who runs the test PostgreSQL server (initdb refuses root) — set TMPDIR to a directory every user can enter, such as /tmp`,
      );
    }
    if (parent === dirname(parent)) break;
  }
  await chown(dir, user.uid, user.gid);
  await chown(socket, user.uid, user.gid);
}

/** Runs a program with only PATH and a C locale in its environment; rejects with its stderr. */
function run(
  file: string,
  args: string[],
  options: { cwd?: string; uid?: number; gid?: number },
): Promise<string> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };
  return new Promise((resolve, reject) => {
    execFile(file, args, { ...options, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`${basename(file)} failed: ${(stderr || error.message).trim()}`));
    });
  });
}
