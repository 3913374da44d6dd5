import { userInfo } from "node:os";
import { loadConfigWithoutApi, resolveConfigPath } from "../config/load-config.js";
import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import type { ConfigWithoutApi } from "../config/types.js";
import { UsageError } from "../errors.js";
import { createLogger } from "../logger.js";
import type { Ledger } from "../state/ledger.js";
import { openStore, storeExists } from "../state/open-store.js";
import type { Silence } from "../state/silences.js";
import { findTeam } from "./command-context.js";

// `alerts --silences` and `alerts --unsilence ID` (issue 24): the silences in the ledger, and
// ending one early. They read and write only the ledger, beside a running daemon.

export interface SilencesOptions {
  team?: string;
  config?: string;
}

/** `alerts --silences`: the silences that hold now or start later, oldest start first. */
export async function silencesCommand(
  opts: SilencesOptions,
  out: (line: string) => void,
  now: Date = new Date(),
): Promise<number> {
  const config = loadLedgerConfig(opts.config);
  if (opts.team) findTeam(config, opts.team); // a typo is named, with the teams there are
  return withLedger(config, out, async (ledger) => {
    const current = (await ledger.silences(opts.team ? { team: opts.team } : {})).filter(
      (s) => s.endedAt === null && s.endsAt.getTime() > now.getTime(),
    );
    if (current.length === 0) {
      out(`no silences${opts.team ? ` of team ${opts.team}` : ""} hold now or later`);
      return 0;
    }
    for (const silence of current) out(formatSilence(silence, now));
    return 0;
  });
}

export interface UnsilenceOptions {
  /** The silence's id, as `--silences` lists it. */
  id: number;
  config?: string;
}

/** `alerts --unsilence ID`: ends the silence now; exit 2 when there is no such silence. */
export async function unsilenceCommand(
  opts: UnsilenceOptions,
  out: (line: string) => void,
  now: Date = new Date(),
  by = `cli:${userInfo().username}`,
): Promise<number> {
  const config = loadLedgerConfig(opts.config);
  if (!storeExists(config.state)) {
    throw new UsageError(`no silence #${opts.id}: there is no ledger at ${config.state.path} yet`);
  }
  return withLedger(config, out, async (ledger) => {
    const result = await ledger.endSilence(opts.id, by, now);
    if (result.outcome === "not_found") {
      throw new UsageError(
        `no silence #${opts.id} in ${ledger.location} — list them with: insights-reporter alerts --silences`,
      );
    }
    const { silence } = result;
    const what = `silence #${silence.id} of ${silence.team}/${silence.alert} (${silence.scope})`;
    if (result.outcome === "ended") {
      out(`${what} ended by ${by}`);
    } else if (silence.endedAt) {
      out(`${what} was ended already, at ${iso(silence.endedAt)} by ${silence.endedBy}`);
    } else {
      out(`${what} was over already, at ${iso(silence.endsAt)}`);
    }
    return 0;
  });
}

/** One line per silence: id, alert and scope, until when, who, and whether it holds yet. */
export function formatSilence(silence: Silence, now: Date): string {
  const holds = silence.startsAt.getTime() <= now.getTime();
  const when = holds
    ? `until ${iso(silence.endsAt)}`
    : `from ${iso(silence.startsAt)} until ${iso(silence.endsAt)}`;
  return `#${silence.id}  ${silence.team}/${silence.alert}  ${silence.scope}  ${when}  by ${silence.author}`;
}

function iso(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

// Only the ledger is read, so the API's variables need not be set.
function loadLedgerConfig(path: string | undefined): ConfigWithoutApi {
  return loadConfigWithoutApi(resolveConfigPath(path), { requireCredentials: false });
}

async function withLedger(
  config: ConfigWithoutApi,
  out: (line: string) => void,
  work: (ledger: Ledger) => Promise<number>,
): Promise<number> {
  if (!storeExists(config.state)) {
    out(`no ledger at ${config.state.path} yet: no silences`);
    return 0;
  }
  const ledger = await openStore(config.state, {
    logger: createLogger({ level: "warn", secretPaths: SECRET_LOG_PATHS }),
  });
  try {
    return await work(ledger);
  } finally {
    await ledger.close();
  }
}
