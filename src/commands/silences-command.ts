import { userInfo } from "node:os";
import { loadConfigWithoutApi, resolveConfigPath } from "../config/load-config.js";
import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import type { ConfigWithoutApi } from "../config/types.js";
import { UsageError } from "../errors.js";
import { createLogger } from "../logger.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import type { Ledger } from "../state/ledger.js";
import { openStore, storeExists } from "../state/open/open-store.js";
import type { Silence } from "../state/silences.js";
import { findTeam } from "./command-context.js";
import { terminalWidth } from "./terminal-width.js";

// `alerts --silences` and `alerts --unsilence ID` (issue 24): the silences in the ledger, and
// ending one early. They read and write only the ledger, beside a running daemon.

export interface SilencesOptions {
  team?: string;
  config?: string;
  /** Past silences too (ended early or run out), with who ended them. */
  all?: boolean;
  /** Columns to fit (default: the terminal's, 80 when piped). */
  width?: number;
}

/** `alerts --silences [--all]`: the silences that hold now or start later (or all), oldest start first. */
export async function silencesCommand(
  opts: SilencesOptions,
  print: (line: string) => void,
  now: Date = new Date(),
): Promise<number> {
  const width = opts.width ?? terminalWidth();
  const out = (line: string) => {
    for (const fitted of fitLine(line, width)) print(fitted);
  };
  const config = loadLedgerConfig(opts.config);
  if (opts.team) findTeam(config, opts.team); // a typo is named, with the teams there are
  return withLedger(config, out, async (ledger) => {
    const listed = (await ledger.silences(opts.team ? { team: opts.team } : {})).filter(
      (s) => opts.all || isCurrent(s, now),
    );
    if (listed.length === 0) {
      const of = opts.team ? ` of team ${opts.team}` : "";
      out(opts.all ? `no silences${of} in the ledger` : `no silences${of} hold now or later`);
      return 0;
    }
    for (const silence of listed) for (const line of formatSilence(silence, now)) out(line);
    return 0;
  });
}

/** Holds now or starts later: not ended, not run out. */
function isCurrent(silence: Silence, now: Date): boolean {
  return silence.endedAt === null && silence.endsAt.getTime() > now.getTime();
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

/**
 * Two lines per silence, each short enough for 80 columns with usual names: id, alert, scope
 * and who; then when — until when it holds, when it starts, or how it ended and by whom.
 */
export function formatSilence(silence: Silence, now: Date): [string, string] {
  return [
    `#${silence.id}  ${silence.team}/${silence.alert}  ${silence.scope}  by ${silence.author}`,
    `    ${when(silence, now)}`,
  ];
}

function when(silence: Silence, now: Date): string {
  const from = `from ${iso(silence.startsAt)}`;
  if (silence.endedAt) {
    return `${from}, ended ${iso(silence.endedAt)} by ${silence.endedBy ?? "someone unknown"}`;
  }
  if (silence.endsAt.getTime() <= now.getTime()) return `${from}, ran out ${iso(silence.endsAt)}`;
  if (silence.startsAt.getTime() <= now.getTime()) return `until ${iso(silence.endsAt)}`;
  return `${from} until ${iso(silence.endsAt)}`;
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
