import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "./create-test-database.js";
import { findPostgresBinaries, serverUser } from "./postgres-binaries.js";
import { type PostgresServer, startPostgres } from "./start-postgres.js";

describe("startPostgres", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it("answers on a loopback port, to the postgres superuser without a password", async () => {
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(
      await psqlAt(server.url, "SELECT current_user, current_setting('server_encoding')"),
    ).toBe("postgres|UTF8");
  });

  it("creates databases that are separate from each other", async () => {
    const first = await server.createDatabase();
    const second = await server.createDatabase("second");
    expect(second).toBe(`postgres://postgres@127.0.0.1:${server.port}/second`);
    expect(first).not.toBe(second);
    await psqlAt(first, "CREATE TABLE only_in_first (id int)");
    expect(
      await psqlAt(first, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_first'"),
    ).toBe("1");
    expect(
      await psqlAt(second, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_first'"),
    ).toBe("0");
  });

  it("comes back after an outage on the same port, its data intact", async () => {
    const url = await server.createDatabase("outage");
    await psqlAt(url, "CREATE TABLE kept (id int); INSERT INTO kept VALUES (1), (2)");
    await server.stopServer();
    expect(await accepts(server.port)).toBe(false);
    await expect(psqlAt(url, "SELECT 1")).rejects.toThrow(/refused|could not connect/i);
    await server.startServer();
    expect(await psqlAt(url, "SELECT id FROM kept ORDER BY id")).toBe("1\n2");
  });

  it("comes back after a crash (immediate stop) with what was committed", async () => {
    const url = await server.createDatabase("crash");
    await psqlAt(url, "CREATE TABLE kept (id int); INSERT INTO kept VALUES (3)");
    await server.stopServer("immediate");
    await server.startServer();
    expect(await psqlAt(url, "SELECT id FROM kept")).toBe("3");
  });

  it("once stopped for good, refuses connections and leaves no directory", async () => {
    await server.stop();
    expect(await accepts(server.port)).toBe(false);
    expect(existsSync(server.dir)).toBe(false);
  });
});

describe("a test process that dies without stopping its server", () => {
  it("leaves no server and no directory behind", async () => {
    const fixture = join(import.meta.dirname, "fixtures", "hold-postgres.ts");
    const child = spawn(process.execPath, ["--import", "tsx", fixture], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()));
      child.once("exit", (code) => reject(new Error(`fixture exited with ${code}`)));
    });
    const { port, dir } = JSON.parse(line) as { port: number; dir: string };
    expect(await accepts(port)).toBe(true);
    child.kill("SIGKILL");
    await vi.waitFor(
      async () => {
        expect(existsSync(dir)).toBe(false);
        expect(await accepts(port)).toBe(false);
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});

describe("the shared server of a test run", () => {
  it("gives each caller an empty database of its own", async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    expect(first).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/\w+$/);
    expect(new URL(first).port).toBe(new URL(second).port);
    expect(first).not.toBe(second);
    expect(await psqlAt(first, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).toBe(
      "0",
    );
  });
});

describe("findPostgresBinaries", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "insights-pg-bin-"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("takes the newest version under Debian's directory when initdb is not on PATH", async () => {
    for (const version of ["9.6", "15", "16", "README"]) {
      await fakeProgram(join(root, "debian", version, "bin"), "initdb", "pg_ctl", "psql");
    }
    const found = findPostgresBinaries({ PATH: join(root, "empty") }, join(root, "debian"));
    expect(found).toEqual({
      initdb: join(root, "debian", "16", "bin", "initdb"),
      pgCtl: join(root, "debian", "16", "bin", "pg_ctl"),
      psql: join(root, "debian", "16", "bin", "psql"),
    });
  });

  it("prefers initdb on PATH, with psql from PATH when it has none beside it", async () => {
    await fakeProgram(join(root, "on-path"), "initdb", "pg_ctl");
    const found = findPostgresBinaries({ PATH: join(root, "on-path") }, join(root, "debian"));
    expect(found).toEqual({
      initdb: join(root, "on-path", "initdb"),
      pgCtl: join(root, "on-path", "pg_ctl"),
      psql: "psql",
    });
  });

  it("fails loudly, naming the package to install, when there is no PostgreSQL", () => {
    expect(() => findPostgresBinaries({ PATH: join(root, "empty") }, join(root, "none"))).toThrow(
      /initdb is neither on PATH nor under .*none\/\*\/bin — install Debian's postgresql package: sudo apt-get install/,
    );
  });
});

describe("serverUser", () => {
  const passwd = (...names: string[]) =>
    names
      .map((name, i) => `${name}:x:${100 + i}:${200 + i}::/nonexistent:/usr/sbin/nologin`)
      .join("\n");

  it.each([
    {
      who: "a user other than root",
      uid: 1000,
      users: ["postgres"],
      runsAs: "itself",
      expected: null,
    },
    {
      who: "root, with Debian's postgres user",
      uid: 0,
      users: ["nobody", "postgres"],
      runsAs: "postgres",
      expected: { name: "postgres", uid: 101, gid: 201 },
    },
    {
      who: "root, without it",
      uid: 0,
      users: ["nobody"],
      runsAs: "nobody",
      expected: { name: "nobody", uid: 100, gid: 200 },
    },
  ])("for $who, the server runs as $runsAs", ({ uid, users, expected }) => {
    expect(serverUser(uid, passwd(...users))).toEqual(expected);
  });
});

/** Runs SQL with psql at a database URL; its rows, one a line. */
function psqlAt(url: string, sql: string): Promise<string> {
  const args = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql];
  return new Promise((resolve, reject) => {
    execFile(
      findPostgresBinaries().psql,
      args,
      { env: { PATH: process.env.PATH } },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr || error.message)) : resolve(stdout.trimEnd()),
    );
  });
}

/** Whether something accepts TCP connections on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function fakeProgram(dir: string, ...names: string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of names) {
    await writeFile(join(dir, name), "#!/bin/sh\n");
    await chmod(join(dir, name), 0o755);
  }
}
