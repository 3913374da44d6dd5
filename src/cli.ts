#!/usr/bin/env node
import { readFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { Command, InvalidArgumentError, Option } from "commander";
import { terminalWidth } from "./commands/terminal-width.js";
import { ReporterError, UsageError } from "./errors.js";
import { fitLine } from "./render/terminal/terminal-style.js";

// Each command's module is imported when that command runs, so `check-config` never loads
// exceljs, the Slack SDK or nodemailer: a command starts in a fraction of the time.

// argv → commands. The one place that maps errors to exit codes: 0 done, 1 a delivery or
// upstream failure, 2 bad usage or config (docs/commands.md).

const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * An error message as stderr shows it: each line fitted to the terminal's columns (80 piped),
 * broken between words and going on two columns further in, so a config problem's path stays
 * at the start of its line.
 */
export function fitMessage(message: string, width = terminalWidth(process.stderr)): string {
  return message
    .split("\n")
    .flatMap((line) => fitLine(line, width))
    .join("\n");
}

/**
 * One style for every usage error, commander's own included: "insights-reporter: …", pointing
 * at the help of the command that was run, where its options are listed.
 */
export function usageLine(commanderMessage: string, command?: string): string {
  const message = commanderMessage.trim().replace(/^error: /, "");
  return `${fitMessage(`insights-reporter: ${message} — see insights-reporter ${command ? `${command} ` : ""}--help`)}\n`;
}

/** Each command's usage errors point at its own help, where required options say so. */
function describeRequiredOptions(program: Command): void {
  for (const command of program.commands) {
    command.configureOutput({
      outputError: (text, write) => write(usageLine(text, command.name())),
    });
    for (const option of command.options) {
      if (option.mandatory) option.description = `${option.description} (required)`;
    }
  }
}

// dist/cli.js and src/cli.ts both sit one level below package.json.
function packageVersion(): string {
  const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}

// ISO 8601 only: `new Date` would also take "2026/11/20" or "Nov 20", in the machine's zone.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isoInstant(value: string): Date {
  const date = new Date(value);
  if (!ISO_INSTANT.test(value) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError(
      `"${value}" is not an ISO date-time, e.g. 2026-11-16T09:00:00+01:00`,
    );
  }
  return date;
}

/** A digest's --at: an ISO instant, or an ISO date meaning that day's fire in the team's zone (or the latest before it). */
function fireAtOption(value: string): Date | string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))) return value;
  if (!ISO_INSTANT.test(value) || Number.isNaN(new Date(value).getTime())) {
    throw new InvalidArgumentError(
      `"${value}" is not an ISO date or date-time, e.g. 2026-11-20 or 2026-11-16T09:00:00+01:00`,
    );
  }
  return new Date(value);
}

/** `demo --at`: an instant, or a date read as noon UTC that day (every demo zone is on that date or the next). */
function demoAtOption(value: string): Date {
  const at = fireAtOption(value);
  return typeof at === "string" ? new Date(`${at}T12:00:00Z`) : at;
}

function whole(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`"${value}" is not a whole number`);
  return n;
}

function positive(value: string): number {
  const n = whole(value);
  if (n === 0) throw new InvalidArgumentError(`"${value}" must be 1 or more`);
  return n;
}

/** A silence's id, as `alerts --silences` lists it (`#3` or `3`). */
function silenceId(value: string): number {
  return positive(value.replace(/^#/, ""));
}

/** `alerts`: an evaluation (--team, --alert), or the silences. */
interface AlertsCliOptions {
  team?: string;
  alert?: string;
  at?: Date;
  outbox?: string;
  config?: string;
  silences?: boolean;
  all?: boolean;
  unsilence?: number;
}

function isoDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new InvalidArgumentError(`"${value}" is not a date like 2026-11-01`);
  return value;
}

/** Commands resolve to their exit status; thrown typed errors are mapped in `main`. */
function exitWith<T>(command: (opts: T) => Promise<number>) {
  return async (opts: T) => {
    process.exitCode = await command(opts);
  };
}

const configOption = () =>
  new Option("--config <file>", "config file (default: $REPORTER_CONFIG or config/reporter.yaml)");

export function buildProgram(): Command {
  const program = new Command("insights-reporter")
    .description("Slack digests, XLSX exports and flaky-rate alerts from your test-run insights")
    .version(packageVersion(), "-V, --version", "print the version")
    // No help after an error: the one-line message stays the last thing a person reads.
    .configureOutput({ outputError: (text, write) => write(usageLine(text)) })
    .exitOverride();

  program
    .command("start")
    .description("the daemon: schedules every digest and alert; serves /healthz, /readyz, /metrics")
    .option(
      "--outbox <dir>",
      "write what would be sent to DIR instead of sending (with a ledger of its own)",
    )
    .addOption(configOption())
    .action(
      exitWith(async (opts) => (await import("./commands/start-command.js")).startCommand(opts)),
    );

  program
    .command("run")
    .description(
      "one digest now: the slot of the schedule's latest fire at or before --at (default now), as the daemon delivers it",
    )
    .requiredOption("--team <team>", "team name")
    .requiredOption("--digest <digest>", "digest name")
    .option(
      "--at <iso>",
      "report the schedule's latest fire at or before this instant, or a date for that day's fire in the team's zone (or the latest before it) (default: now)",
      fireAtOption,
    )
    .option("--outbox <dir>", "write what would be sent to DIR instead of sending")
    .option("--force", "send even if the ledger says this slot was delivered")
    .addOption(configOption())
    .action(
      exitWith(async (opts) => (await import("./commands/run-command.js")).runCommand(opts, out)),
    );

  program
    .command("alerts")
    .description(
      "one alert evaluation now, recorded in the ledger and delivered; or the silences (--silences, --unsilence ID)",
    )
    .option("--team <team>", "team name (required to evaluate; with --silences, only its silences)")
    .option("--alert <alert>", "alert name (required to evaluate)")
    .option("--silences", "list the silences that hold now or start later, with their ids")
    .option("--all", "with --silences: past silences too, with who ended them")
    .option("--unsilence <id>", "end the silence with this id now", silenceId)
    .option(
      "--at <iso>",
      "the scheduled fire instant whose window to evaluate (default: now)",
      isoInstant,
    )
    .option(
      "--outbox <dir>",
      "a dry run: write what would be sent to DIR, leave the states as they were",
    )
    .addOption(configOption())
    .action(
      exitWith(async (opts: AlertsCliOptions) => {
        if (opts.silences) {
          return (await import("./commands/silences-command.js")).silencesCommand(opts, out);
        }
        if (opts.all) {
          throw new UsageError(
            "--all goes with --silences: insights-reporter alerts --silences --all",
          );
        }
        if (opts.unsilence !== undefined) {
          const { unsilenceCommand } = await import("./commands/silences-command.js");
          return unsilenceCommand({ ...opts, id: opts.unsilence }, out);
        }
        const { team, alert } = opts;
        if (!team || !alert) {
          throw new UsageError(
            `alerts needs --team and --alert to evaluate (or --silences, or --unsilence ID) — see insights-reporter alerts --help`,
          );
        }
        return (await import("./commands/alerts-command.js")).alertsCommand(
          { ...opts, team, alert },
          out,
        );
      }),
    );

  program
    .command("preview")
    .description("a digest, or an alert's evaluation, as terminal text; nothing is sent")
    .requiredOption("--team <team>", "team name")
    .option("--digest <digest>", "digest name")
    .option(
      "--alert <alert>",
      "alert name (evaluated against the ledger's states; nothing recorded)",
    )
    .option(
      "--at <iso>",
      "report the schedule's latest fire at or before this instant, or a date for that day's fire in the team's zone (or the latest before it) (default: now)",
      fireAtOption,
    )
    .option("--charts <dir>", "also write the digest's trend charts to this directory, as PNGs")
    .addOption(configOption())
    .action(
      exitWith(async (opts) =>
        (await import("./commands/preview-command.js")).previewCommand(opts, out),
      ),
    );

  program
    .command("export")
    .description("a workbook for any range, compared with the equal range before it")
    .requiredOption("--team <team>", "team name")
    .option("--project <id>", "only this project")
    .requiredOption("--from <date>", "first day, e.g. 2026-11-01", isoDate)
    .requiredOption("--to <date>", "last day, e.g. 2026-11-30", isoDate)
    .requiredOption("--out <file>", "the .xlsx file to write")
    .option("--tz <zone>", "IANA zone for the days (default: the team's)")
    .addOption(configOption())
    .action(
      exitWith(async (opts) =>
        (await import("./commands/export-command.js")).exportCommand(opts, out),
      ),
    );

  program
    .command("check-config")
    .description(
      "validate the config; print each schedule's next fires; --online checks what it can",
    )
    .option(
      "--online",
      "also check the API key, the project ids, Teams and webhook URLs and the Slack token, naming what it skips",
    )
    .addOption(configOption())
    .action(
      exitWith(async (opts) =>
        (await import("./commands/check-config-cli.js")).checkConfigCli(opts, out),
      ),
    );

  program
    .command("projects")
    .description(
      "list the workspace's projects (id and name); needs only INSIGHTS_API_URL and INSIGHTS_API_KEY",
    )
    .addOption(configOption())
    .action(
      exitWith(async (opts) =>
        (await import("./commands/projects-command.js")).projectsCommand(opts, out),
      ),
    );

  program
    .command("init")
    .description(
      "write a starter config: the workspace's projects, a weekly digest to a Slack channel",
    )
    .requiredOption(
      "--channel <channel>",
      "Slack channel of the digest: an id (C0123ABCD) or #name",
    )
    .requiredOption("--out <file>", "the config file to write (never overwritten)")
    .option("--timezone <zone>", "the team's IANA zone (default: this machine's)")
    .option("--team <name>", "the team's name (default: from the channel)")
    .action(
      exitWith(async (opts) => (await import("./commands/init-command.js")).initCommand(opts, out)),
    );

  program
    .command("backfill")
    .description(
      "fill the day store with every day the insights API still serves (default: its 3 months)",
    )
    .option("--team <team>", "only this team's projects")
    .option("--from <date>", "first day, e.g. 2026-09-01", isoDate)
    .addOption(configOption())
    .action(
      exitWith(async (opts) =>
        (await import("./commands/backfill-command.js")).backfillCommand(opts, out),
      ),
    );

  program
    .command("store")
    .description("what the day store holds per project: first and last day, days missing")
    .addOption(configOption())
    .action(
      exitWith(async (opts) =>
        (await import("./commands/store-command.js")).storeCommand(opts, out),
      ),
    );

  program
    .command("history")
    .description("recent slots with each destination's state, attempts and last error")
    .option("--team <team>", "only this team")
    .option("--limit <n>", "how many slots", positive, 20)
    .option("--outbox <dir>", "read the ledger that start --outbox DIR keeps there")
    .option("--tz <zone>", "IANA zone of the times shown (default: UTC)")
    .addOption(configOption())
    .action(
      exitWith(async (opts) =>
        (await import("./commands/history-command.js")).historyCommand(opts, out),
      ),
    );

  program
    .command("demo")
    .description(
      "the whole pipeline with no credentials, against the built-in emulator, into an outbox",
    )
    .option("--out <dir>", "where to write the outbox", "demo-out")
    .option(
      "--at <iso>",
      "fire every digest and alert at this instant, or at noon UTC of a date, over the emulator's data for that day: the same output every time (default: now)",
      demoAtOption,
    )
    .action(
      exitWith(async (opts) => (await import("./commands/demo-command.js")).demoCommand(opts, out)),
    );

  program
    .command("emulator")
    .description("serve the insights API locally with synthetic data")
    .option("--port <n>", "port (default: a free one)", whole)
    .option("--key <key>", "the only API key it accepts", "demo-key")
    .option("--today <date>", "the date it treats as today", isoDate)
    .option("--projects <n>", "how many projects (default 7: the demo's)", whole)
    .option("--seed <seed>", "seed of the synthetic data")
    .option("--latency-ms <n>", "how long each answer takes, its work included", whole)
    .option("--faults <spec>", 'injected faults, e.g. "429:0.1,503:0.05,reset:0.02"')
    .action(async (opts) => {
      const { emulatorCommand } = await import("./commands/emulator-command.js");
      await emulatorCommand(opts, out);
      await new Promise(() => {}); // serve until interrupted
    });

  describeRequiredOptions(program);
  // A command that ends on its own, most within a second, skips compiling code again to run it
  // faster: that never pays back in so short a life. The daemon compiles again only the code
  // that runs hot in a cycle (compiler-tuning.ts).
  program.hook("preAction", async (_program, command) => {
    (await import("./compiler-tuning.js")).tuneForCommand(command.name());
  });
  return program;
}

/** Runs the CLI and resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    return exitStatusFor(error);
  }
}

function exitStatusFor(error: unknown): number {
  if (error instanceof ReporterError) {
    process.stderr.write(`${fitMessage(`insights-reporter: ${error.message}`)}\n`);
    return error.exitCode;
  }
  const code = (error as { code?: string }).code;
  if (typeof code === "string" && code.startsWith("commander.")) {
    // commander has already printed help, a version, or the usage error.
    return code === "commander.helpDisplayed" ||
      code === "commander.version" ||
      code === "commander.help"
      ? 0
      : 2;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${fitMessage(`insights-reporter: unexpected error: ${detail}`)}\n`);
  return 1;
}

// A reader that leaves early (`insights-reporter history | head`) closes the pipe: stop quietly,
// as Unix tools do on SIGPIPE, instead of dying of an unhandled EPIPE with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

// Node ≥ 22.1 keeps the compiled code of every module loaded from here on (each command's
// modules, zod, yaml) on disk, so the next start skips compiling them: in $NODE_COMPILE_CACHE,
// else the OS temp dir; NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot be
// written is only reported in the returned status, never thrown; Node 20 has no such cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

void main(process.argv).then((code) => {
  process.exitCode = code;
});
