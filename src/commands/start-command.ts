import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import { startDaemonService } from "../daemon/daemon-service.js";
import { createLogger, type Logger } from "../logger.js";
import { loadCommandConfig } from "./command-context.js";

export interface StartOptions {
  config?: string;
  /** Write what would be sent into DIR instead of sending (a ledger of its own goes there too). */
  outbox?: string;
}

/** In-flight deliveries get this long after SIGTERM/SIGINT before the process lets them go. */
export const SHUTDOWN_GRACE_MS = 30_000;

// A second SIGTERM/SIGINT exits at once, with the shell's convention for "killed by signal".
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * `start`: the daemon, until a signal. SIGTERM/SIGINT stop it cleanly (exit 0); a second one
 * exits at once; SIGHUP reloads the config, keeping the running one if the new one is invalid.
 * Exit 2 when the config is invalid or another daemon holds the ledger.
 */
export async function startCommand(opts: StartOptions): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: !opts.outbox });
  const logger = createLogger({ secretPaths: SECRET_LOG_PATHS });
  const service = await startDaemonService(config, {
    logger,
    ...(opts.outbox ? { outbox: opts.outbox } : {}),
  });

  const code = await new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string, exitCode: number) => {
      stopping = true;
      logger.info(
        { signal, graceMs: SHUTDOWN_GRACE_MS },
        "stopping: no new slots; deliveries in flight may finish (a second signal exits at once)",
      );
      service.stop(SHUTDOWN_GRACE_MS).then(
        () => resolve(exitCode),
        (error: unknown) => {
          logger.error({ err: String(error) }, "could not stop cleanly");
          resolve(1);
        },
      );
    };
    const onStopSignal = (signal: keyof typeof SIGNAL_EXIT) => {
      if (!stopping) return stop(signal, 0);
      logger.warn(
        { signal },
        "second signal: exiting now; interrupted deliveries are checked on the next start",
      );
      process.exit(SIGNAL_EXIT[signal]);
    };
    process.on("SIGTERM", onStopSignal);
    process.on("SIGINT", onStopSignal);
    process.on("SIGHUP", () => reload(opts, logger, service.reload));
    void service.fatal.then((error) => {
      logger.fatal({ err: error.message }, "the daemon cannot go on");
      if (!stopping) stop("lease lost", 2);
    });
  });

  // A delivery cut off by the grace period may still hold a socket open: do not wait for it.
  setTimeout(() => process.exit(code), 1_000).unref();
  return code;
}

function reload(
  opts: StartOptions,
  logger: Logger,
  apply: (config: ReturnType<typeof loadCommandConfig>) => void,
): void {
  let config: ReturnType<typeof loadCommandConfig>;
  try {
    config = loadCommandConfig(opts, { requireCredentials: !opts.outbox });
  } catch (error) {
    logger.error(
      { err: error instanceof Error ? error.message : String(error) },
      "SIGHUP: the config was not reloaded, the running one stays — fix the problems above and send SIGHUP again",
    );
    return;
  }
  apply(config);
}
