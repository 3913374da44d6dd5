import { DateTime } from "luxon";
import { shortKeepWarning } from "../config/history-rules.js";
import type { ResolvedConfig, Team, Weekday } from "../config/types.js";
import { ReporterError } from "../errors.js";
import type { InsightsApi, ProjectSummary } from "../insights/types.js";
import { configRedactor } from "../redact-errors.js";
import { zoneAbbreviations } from "../render/fire-words.js";
import { plural } from "../render/format.js";
import { fitLine, pad, visibleLength } from "../render/terminal/terminal-style.js";
import { describeUrl } from "../state/postgres/describe-url.js";
import { nextFires } from "../timetable/cron-fires.js";
import { coverageGap, coveredDays } from "./digest-coverage.js";

export interface CheckConfigOptions {
  /** A config that has already passed validation (the CLI loads it and exits 2 on ConfigError). */
  config: ResolvedConfig;
  /** The instant next fires are counted from. */
  now: Date;
  /** Columns to fit (the CLI's terminalWidth); longer lines break between words. */
  width?: number;
  /** With `--online`: the real API client and Slack's auth.test. */
  online?: {
    api: InsightsApi;
    slackAuthTest?: () => Promise<{ team: string; user: string }>;
    /** Destinations that each carry their own URL (Teams, webhooks), checked without posting. */
    probes?: {
      destination: string;
      usedBy: string;
      probe(): Promise<{ ok: boolean; message: string }>;
    }[];
  };
}

const FIRES_SHOWN = 3;
const DEFAULT_WIDTH = 80;
const IDS_SHOWN = 20;

/**
 * `check-config`: prints what the config will do — each digest's and alert's next fires in the
 * team's zone and in UTC, one per line, fitted to `width` — and with `online` checks the API
 * key, every project id, each Teams and webhook URL and the Slack token, naming what it could
 * not check and why. Returns the exit code: 0 when all is well, 1 when an online check failed.
 */
export async function checkConfigCommand(
  opts: CheckConfigOptions,
  print: (line: string) => void,
): Promise<number> {
  const { config, now } = opts;
  const width = opts.width ?? DEFAULT_WIDTH;
  const out = (line: string) => {
    for (const fitted of fitLine(line, width)) print(fitted);
  };
  out(`${config.source}: valid — ${describeCounts(config)}`);
  out(`  api ${config.api.url} (key set)`);
  out(
    `  slack token ${describeSlackToken(config.slack.token?.reveal() ?? null)}, smtp_url ${config.email.smtpUrl ? "set" : "not set"}`,
  );
  out(`  ledger ${describeStore(config.state)}`);
  const keepWarning = config.history
    ? shortKeepWarning(config.history.keep, now.toISOString().slice(0, 10))
    : null;
  if (keepWarning) out(`  ${keepWarning}`);
  for (const note of [...missingForSending(config), ...channelNameNotes(config)]) {
    out(`  note: ${note}`);
  }
  for (const team of config.teams) {
    out("");
    for (const line of describeTeam(team, now)) out(line);
  }
  if (!opts.online) return 0;
  out("");
  const ok = await checkOnline(config, opts.online, out);
  return ok ? 0 : 1;
}

/** Which store the ledger is in, never with the database password. */
function describeStore(state: ResolvedConfig["state"]): string {
  if (state.url) return `PostgreSQL ${describeUrl(state.url.reveal())} (replicas share it)`;
  return `SQLite ${state.path} (one daemon)`;
}

/** What sending still needs: a token or SMTP URL that destinations use and that is not set. */
function missingForSending(config: ResolvedConfig): string[] {
  const { slack, email } = destinationUses(config);
  const notes: string[] = [];
  const without = "preview, run --outbox and demo work without it";
  if (slack > 0 && config.slack.token === null) {
    notes.push(
      `${plural(slack, "destination")} in Slack: set SLACK_BOT_TOKEN to send (${without})`,
    );
  }
  if (email > 0 && config.email.smtpUrl === null) {
    notes.push(`${plural(email, "destination")} by email: set SMTP_URL to send (${without})`);
  }
  return notes;
}

/** A channel given by #name is looked up on every run: it needs a scope, and a rename breaks it. */
function channelNameNotes(config: ResolvedConfig): string[] {
  return config.teams.flatMap((team) =>
    [...team.digests, ...team.alerts].flatMap((job) => {
      const channel = job.slack?.channel;
      if (!channel?.startsWith("#")) return [];
      return [
        `${team.name}/${job.name} posts to "${channel}" by name: finding it needs the channels:read scope, and renaming the channel breaks it — prefer the channel ID (C0123ABCD; in Slack: channel details, at the bottom)`,
      ];
    }),
  );
}

function describeCounts(config: ResolvedConfig): string {
  const digests = config.teams.reduce((n, t) => n + t.digests.length, 0);
  const alerts = config.teams.reduce((n, t) => n + t.alerts.length, 0);
  return `${plural(config.teams.length, "team")}, ${plural(digests, "digest")}, ${plural(alerts, "alert")}`;
}

/** The team, then each digest and alert with its next fires, one fire per line. */
function describeTeam(team: Team, now: Date): string[] {
  const header = `team ${team.name} "${team.title}" — ${team.timezone}, weeks start ${weekdayName(team.weekStartsOn)}, ${plural(team.projects.length, "project")}`;
  const jobs = [
    ...team.digests.map((d) => ({ kind: "digest", name: d.name, schedule: d.schedule, digest: d })),
    ...team.alerts.map((a) => ({
      kind: "alert",
      name: a.name,
      schedule: a.schedule,
      digest: null,
    })),
  ];
  if (jobs.length === 0) return [header, "  no digests or alerts — nothing will be sent"];
  const abbreviate = zoneAbbreviations(team.timezone);
  return [
    header,
    ...jobs.flatMap((job) => {
      const id = `${job.kind} ${team.name}/${job.name}  ${job.schedule}`;
      const fires = nextFires(job.schedule, team.timezone, now, FIRES_SHOWN);
      if (fires.length === 0) return [`  ${id}  never fires`];
      const shown = fires.map((f) => describeFire(f, team.timezone, abbreviate));
      const covers = job.digest ? coveredDays(team, job.digest, fires) : [];
      const width = Math.max(...shown.map(visibleLength));
      const gap = job.digest ? coverageGap(team, job.digest, now) : null;
      return [
        `  ${id}  next:`,
        ...shown.map((fire, i) =>
          `    ${pad(fire, width)}  ${covers[i] ? `covers ${covers[i]}` : ""}`.trimEnd(),
        ),
        ...(gap ? [`    ${gap}`] : []),
      ];
    }),
  ];
}

/** `Mon 2026-11-23 09:00 CET (08:00 UTC)`; the UTC side names its date when it differs. */
export function describeFire(
  fire: Date,
  zone: string,
  abbreviate: (at: Date) => string = zoneAbbreviations(zone),
): string {
  const local = DateTime.fromJSDate(fire, { zone }).setLocale("en-US");
  const utc = DateTime.fromJSDate(fire, { zone: "UTC" }).setLocale("en-US");
  const sameDay = local.toISODate() === utc.toISODate();
  const utcText = sameDay ? utc.toFormat("HH:mm") : utc.toFormat("ccc yyyy-LL-dd HH:mm");
  return `${local.toFormat("ccc yyyy-LL-dd HH:mm")} ${abbreviate(fire)} (${utcText} UTC)`;
}

async function checkOnline(
  config: ResolvedConfig,
  online: NonNullable<CheckConfigOptions["online"]>,
  out: (line: string) => void,
): Promise<boolean> {
  let ok = true;
  const scrub = configRedactor(config);
  let available: ProjectSummary[] | null = null;
  try {
    available = await online.api.listProjects();
    out(`insights API: key accepted — ${plural(available.length, "project")} in this workspace`);
  } catch (error) {
    ok = false;
    out(`insights API: ${scrub(messageOf(error))}`);
  }
  if (available) {
    const ids = new Set(available.map((p) => p.id));
    for (const team of config.teams) {
      const missing = team.projects.filter((p) => !ids.has(p.id));
      if (missing.length === 0) {
        out(`team ${team.name}: all ${plural(team.projects.length, "project")} found`);
        continue;
      }
      ok = false;
      for (const project of missing) {
        out(
          `team ${team.name}: project "${project.id}" not in this workspace — ids available: ${listIds(available)}`,
        );
      }
    }
  }
  for (const { destination, usedBy, probe } of online.probes ?? []) {
    const result = await probe();
    if (!result.ok) ok = false;
    out(`${destination} (${usedBy}): ${scrub(result.message)}`);
  }
  const uses = destinationUses(config);
  if (uses.slack > 0 && config.slack.token === null) {
    out("Slack: not checked — SLACK_BOT_TOKEN is not set");
  }
  if (online.slackAuthTest) {
    try {
      const who = await online.slackAuthTest();
      out(`Slack: token accepted — workspace ${who.team}, bot user ${who.user}`);
    } catch (error) {
      ok = false;
      // Our own errors already name the fix; a bare library error gets the usual suspects.
      const advice =
        error instanceof ReporterError
          ? ""
          : " — check SLACK_BOT_TOKEN is a bot token (xoxb-…) of your workspace, and SLACK_API_URL if you set it";
      out(`Slack: the token check (auth.test) failed: ${scrub(messageOf(error))}${advice}`);
    }
  }
  if (uses.email > 0 && config.email.smtpUrl === null) {
    out("Email: not checked — SMTP_URL is not set");
  }
  return ok;
}

/** How many digests and alerts post to Slack, and how many send email. */
function destinationUses(config: ResolvedConfig): { slack: number; email: number } {
  const jobs = config.teams.flatMap((t) => [...t.digests, ...t.alerts]);
  return {
    slack: jobs.filter((j) => j.slack !== null).length,
    email: jobs.filter((j) => j.email !== null).length,
  };
}

/** "set", or what is wrong with it: digests post as the app's bot, with a bot token. */
function describeSlackToken(token: string | null): string {
  if (token === null) return "not set";
  if (token.startsWith("xoxb-")) return "set";
  return "set, but it is not a bot token (xoxb-…): use the app's Bot User OAuth Token";
}

function listIds(projects: ProjectSummary[]): string {
  if (projects.length === 0) return "none (the workspace has no projects)";
  const shown = projects.slice(0, IDS_SHOWN).map((p) => `${p.id} (${p.name})`);
  const more = projects.length - shown.length;
  return `${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const WEEKDAY_NAMES = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
];

function weekdayName(weekday: Weekday): string {
  return WEEKDAY_NAMES[weekday - 1] ?? String(weekday);
}
