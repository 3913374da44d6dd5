import { resolve } from "node:path";
import { IANAZone } from "luxon";
import { loadConfigWithoutApi, resolveConfigPath } from "../config/load-config.js";
import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import { outboxLedgerPath } from "../deliver/outbox.js";
import { UsageError } from "../errors.js";
import { createLogger } from "../logger.js";
import { configRedactor } from "../redact-errors.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import { openStore, storeExists } from "../state/open/open-store.js";
import { findTeam } from "./command-context.js";
import { formatHistory } from "./history-table.js";
import { terminalWidth } from "./terminal-width.js";

export interface HistoryOptions {
  team?: string;
  limit: number;
  config?: string;
  /** Read the ledger of `start --outbox DIR` instead of `state.path`. */
  outbox?: string;
  /** The IANA zone every time is shown in (default UTC). */
  tz?: string;
}

/** `history`: recent slots with each destination's state, attempts and last error. Works beside a running daemon. */
export async function historyCommand(
  opts: HistoryOptions,
  print: (line: string) => void,
): Promise<number> {
  const width = terminalWidth();
  // history reads only the ledger, so the API's variables need not be set to read it.
  const config = loadConfigWithoutApi(resolveConfigPath(opts.config), {
    requireCredentials: false,
  });
  // An error stored before secrets were redacted where they are recorded is redacted here
  // (redact-errors.ts); before a line is cut to fit, so no piece of a secret is left.
  const redact = configRedactor(config);
  const out = (line: string) => {
    for (const fitted of fitLine(redact(line), width)) print(fitted);
  };
  if (opts.team) findTeam(config, opts.team); // a typo is named, with the teams there are
  const zone = opts.tz ?? "UTC";
  if (!IANAZone.isValidZone(zone)) {
    throw new UsageError(`--tz "${zone}" is not an IANA timezone name, e.g. Europe/Berlin`);
  }
  const path = resolve(opts.outbox ? outboxLedgerPath(opts.outbox) : config.state.path);
  const store = opts.outbox ? { path, url: null } : { ...config.state, path };
  if (!storeExists(store)) {
    out(
      opts.outbox
        ? `no ledger at ${path}: nothing has run with start --outbox ${opts.outbox}`
        : `no ledger at ${path} yet: nothing has run with the state.path of ${config.source}`,
    );
    return 0;
  }
  const ledger = await openStore(store, {
    logger: createLogger({ level: "warn", secretPaths: SECRET_LOG_PATHS }),
  });
  try {
    const slots = await ledger.history({
      ...(opts.team ? { team: opts.team } : {}),
      limit: opts.limit,
    });
    if (slots.length === 0) {
      const where = ledger.location;
      out(opts.team ? `no slots of team "${opts.team}" in ${where}` : `no slots in ${where} yet`);
      return 0;
    }
    for (const line of formatHistory(slots, { zone, width, outbox: Boolean(opts.outbox) }))
      out(line);
    return 0;
  } finally {
    await ledger.close();
  }
}
