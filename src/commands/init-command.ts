import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { IANAZone } from "luxon";
import { apiFromEnv } from "../config/api-from-env.js";
import { tryParseConfigText } from "../config/load-config.js";
import { STARTER_DIGEST, starterConfigText } from "../config/starter-config.js";
import { createApiOnlyClient } from "../create-read-clients.js";
import { UsageError } from "../errors.js";
import { localDateOf } from "../periods/calendar-date.js";
import { plural } from "../render/format.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import { terminalWidth } from "./terminal-width.js";

export interface InitOptions {
  channel: string;
  out: string;
  timezone?: string;
  team?: string;
}

/**
 * `init`: a starter config for the workspace's projects — one team, a weekly digest to the
 * Slack channel given — written to --out, never over an existing file. Needs only
 * INSIGHTS_API_URL and INSIGHTS_API_KEY, which the written file reads too.
 */
export async function initCommand(
  opts: InitOptions,
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  now: () => Date = () => new Date(),
): Promise<number> {
  const timezone = opts.timezone ?? machineZone();
  if (!IANAZone.isValidZone(timezone)) {
    throw new UsageError(`--timezone "${timezone}" is not an IANA zone name, e.g. Europe/Berlin`);
  }
  const team = opts.team ?? teamNameFor(opts.channel);
  if (!/^[a-z0-9-]+$/.test(team)) {
    throw new UsageError(`--team "${team}" must be lowercase letters, digits and -, e.g. qa`);
  }
  const api = createApiOnlyClient(apiFromEnv(env));
  let projects: Awaited<ReturnType<typeof api.listProjects>>;
  try {
    projects = await api.listProjects();
  } finally {
    await api.close();
  }
  if (projects.length === 0) {
    throw new UsageError(
      "the workspace has no projects yet — a config lists at least one: run init again once the first test run is reported",
    );
  }
  const text = starterConfigText({
    team,
    timezone,
    channel: opts.channel,
    projects,
    today: localDateOf(now(), timezone),
  });
  // What is written must load: a starter that check-config would refuse is never written. What
  // can make it refuse is what the options put in it (an empty --channel), so they are named.
  const checked = tryParseConfigText(text, opts.out, { env, requireCredentials: false });
  if ("issues" in checked) {
    const problems = checked.issues.map((i) => `${i.label ?? i.path}: ${i.message}`).join("; ");
    throw new UsageError(
      `the starter config would not load (${problems}), so nothing was written — give --channel a channel id (C0123ABCD) or #name and --team lowercase letters, digits and -, or start from config/reporter.example.yaml`,
    );
  }
  await writeNew(opts.out, text);
  const width = terminalWidth();
  const say = (line: string) => {
    for (const fitted of fitLine(line, width)) out(fitted);
  };
  const digest = STARTER_DIGEST.name;
  const config = `--config ${opts.out}`;
  say(
    `wrote ${opts.out}: team ${team} (${timezone}), ${plural(projects.length, "project")}, a ${digest} digest to ${opts.channel} on Mondays at 09:00`,
  );
  say("next:");
  say(`  insights-reporter check-config --online ${config}`);
  say(`  insights-reporter preview --team ${team} --digest ${digest} ${config}`);
  say(
    `  then, with SLACK_BOT_TOKEN set: insights-reporter run --team ${team} --digest ${digest} ${config}`,
  );
  return 0;
}

/** The machine's zone (Intl reads TZ, else the system's), or UTC when it names none. */
function machineZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** `#qa-web` → `qa-web`; a channel id (C0123ABCD) names no team: `team`. */
function teamNameFor(channel: string): string {
  if (/^[CG][A-Z0-9]{8,}$/.test(channel)) return "team";
  const name = channel
    .replace(/^#/, "")
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return name || "team";
}

/** Writes a new file; one already there is the user's, and stays as it is. */
async function writeNew(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, text, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new UsageError(
        `${path} already exists — init never overwrites a file: choose another --out, or move it away first`,
      );
    }
    throw error;
  }
}
