import { accessSync, constants, readdirSync, readFileSync, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

// Where the PostgreSQL server programs are, and whom they run as. Debian's `postgresql` package
// keeps initdb and pg_ctl off PATH, under /usr/lib/postgresql/<version>/bin; other systems put
// them on PATH. initdb refuses to run as root, so as root the server runs as another user.

/** The programs the tests run: all from one installation, so their versions match. */
export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  psql: string;
}

/** Who runs initdb and the server, when that is not this process's own user. */
export interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

const INSTALL_HINT =
  "install Debian's postgresql package: sudo apt-get install -y --no-install-recommends postgresql (.ci/run installs it on CI)";

/** The installation whose initdb comes first on PATH, else the newest under `debianRoot`. */
export function findPostgresBinaries(
  env: NodeJS.ProcessEnv = process.env,
  debianRoot = "/usr/lib/postgresql",
): PostgresBinaries {
  const dir = binDirOnPath(env.PATH ?? "") ?? newestBinDir(debianRoot);
  if (dir === null) {
    throw new Error(
      `The PostgreSQL tests need a PostgreSQL server, and initdb is neither on PATH nor under ${debianRoot}/*/bin — ${INSTALL_HINT}`,
    );
  }
  // psql comes with the client package, which the server package depends on; PATH is a fallback.
  const psql = join(dir, "psql");
  return {
    initdb: join(dir, "initdb"),
    pgCtl: join(dir, "pg_ctl"),
    psql: isExecutable(psql) ? psql : "psql",
  };
}

/**
 * The user the server runs as: none (this process's own) unless `uid` is root; then Debian's
 * `postgres` system user if `passwd` lists it, else `nobody`.
 */
export function serverUser(
  uid: number | undefined = process.getuid?.(),
  passwd: string = readFileSync("/etc/passwd", "utf8"),
): ServerUser | null {
  if (uid !== 0) return null;
  const users = passwd.split("\n").map((line) => line.split(":"));
  for (const name of ["postgres", "nobody"]) {
    const entry = users.find((fields) => fields[0] === name);
    if (entry) return { name, uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  throw new Error(
    "Running as root, and neither a postgres nor a nobody user exists to run initdb as (it refuses root) — run the tests as another user, or install Debian's postgresql package, which creates the postgres user",
  );
}

function binDirOnPath(path: string): string | null {
  for (const entry of path.split(delimiter).filter(Boolean)) {
    const initdb = join(entry, "initdb");
    if (!isExecutable(initdb)) continue;
    // /usr/local/bin/initdb may be a link into an installation: take its siblings from there.
    const dir = dirname(realpathSync(initdb));
    if (isExecutable(join(dir, "pg_ctl"))) return dir;
  }
  return null;
}

function newestBinDir(root: string): string | null {
  let versions: string[];
  try {
    versions = readdirSync(root);
  } catch {
    return null;
  }
  const found = versions
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((version) => join(root, version, "bin"))
    .find((dir) => isExecutable(join(dir, "initdb")) && isExecutable(join(dir, "pg_ctl")));
  return found ?? null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
