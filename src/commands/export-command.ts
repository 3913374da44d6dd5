import { access, constants, mkdir } from "node:fs/promises";
import { dirname, extname, resolve } from "node:path";
import { IANAZone } from "luxon";
import { createApiClient } from "../create-read-clients.js";
import { writeFileAtomically } from "../deliver/atomic-file.js";
import { UsageError } from "../errors.js";
import {
  collectInsights,
  createRequestCache,
  forgetInsights,
} from "../insights/collect-insights.js";
import { localDateOf } from "../periods/calendar-date.js";
import { periodForRange, priorOfRange } from "../periods/period-for-range.js";
import type { Period, PeriodPair } from "../periods/types.js";
import { plural } from "../render/format.js";
import { nameWithId } from "../render/project-name.js";
import { fitLine } from "../render/terminal/terminal-style.js";
import { buildReport } from "../report/build-report.js";
import { findTeam, loadCommandConfig } from "./command-context.js";
import { terminalWidth } from "./terminal-width.js";

export interface ExportOptions {
  team: string;
  project?: string;
  from: string;
  to: string;
  out: string;
  tz?: string;
  config?: string;
}

/**
 * `export`: a workbook for any range the API serves or the day store holds, compared with the
 * equal range just before; days neither has are named in the output and the About sheet.
 * Exit 1 when a project could not be fetched (the workbook is still written, and says which).
 */
export async function exportCommand(
  opts: ExportOptions,
  out: (line: string) => void,
  now: () => Date = () => new Date(),
  progress: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  // Its notes run long (a path, a range, a reason): broken between words, never by the terminal.
  const width = terminalWidth();
  const say = (line: string) => {
    for (const fitted of fitLine(line, width)) out(fitted);
  };
  const config = loadCommandConfig(opts, { requireCredentials: false });
  const team = findTeam(config, opts.team);
  const timezone = opts.tz ?? team.timezone;
  if (!IANAZone.isValidZone(timezone)) {
    throw new UsageError(`--tz "${timezone}" is not an IANA timezone name, e.g. Europe/Berlin`);
  }
  const projects = opts.project
    ? team.projects.filter((p) => p.id === opts.project)
    : team.projects;
  if (projects.length === 0) {
    throw new UsageError(
      `team "${team.name}" has no project "${opts.project}" — projects: ${team.projects.map((p) => p.id).join(", ")}`,
    );
  }
  let periods = rangePeriods(periodForRange(opts.from, opts.to));
  await prepareOutFile(opts.out);

  const api = createApiClient(config, undefined, undefined, () => now().getTime());
  try {
    const showProgress = progress.isTTY === true && projects.length >= 10;
    const cache = createRequestCache();
    const collect = async () => {
      const collected = await collectInsights(api, { projects, timezone }, periods, cache, {
        onProjectDone: showProgress
          ? (done, total) => drawProgress(progress, done, total)
          : undefined,
      });
      if (showProgress) progress.write("\n");
      refuseUnservedRange(collected, opts.from);
      return collected;
    };
    let collected = await collect();
    // The API clamps a future end to its today: compare what it served with an equal span
    // before it, not a full-length prior with a part-empty current period.
    const served = servedEnd(collected, periods.current.end);
    let clampNote: string | null = null;
    if (served !== null) {
      clampNote = `--to ${opts.to} is after the last day the API has (${served}): the workbook covers ${opts.from}..${served}`;
      periods = rangePeriods(periodForRange(opts.from, served));
      collected = await collect();
    }
    const { current } = periods;
    const report = buildReport({
      team: { name: team.name, title: team.title, timezone },
      digest: "export",
      periods,
      generatedAt: now().toISOString(),
      dashboardUrl: team.dashboardUrl,
      projects: collected,
    });
    // The report holds all the workbook needs: the fetched days (15 MB for 2 years of 100
    // projects) are let go before it is written, not held to the end of the command.
    collected = [];
    forgetInsights(cache);
    // exceljs (~13 MB of heap, ~25 MB resident) is loaded only now, into the room the fetched
    // days left, not beside them while they are read.
    const { writeWorkbook } = await import("../render/workbook/workbook.js");
    await writeFileAtomically(opts.out, (stream) => writeWorkbook(report, stream));
    const unavailable = report.projects.filter((p) => p.status === "unavailable");
    say(
      `wrote ${opts.out}: ${plural(report.projects.length, "project")}, ${current.start}..${current.end} vs ${periods.prior.start}..${periods.prior.end} (${timezone})`,
    );
    if (clampNote) say(`  ${clampNote}`);
    const lastDayNote = endNote(
      current.end,
      served !== null,
      localDateOf(now(), timezone),
      timezone,
    );
    if (lastDayNote) say(`  ${lastDayNote}`);
    for (const p of unavailable)
      if (p.status === "unavailable")
        say(`  ${nameWithId(p.name, p.projectId)} unavailable: ${p.reason.message}`);
    if (report.total.priorNote) say(`  ${report.total.priorNote}`);
    if (report.missingDaysNote) say(`  ${report.missingDaysNote}`);
    return unavailable.length > 0 ? 1 : 0;
  } finally {
    await api.close();
  }
}

type Collected = Awaited<ReturnType<typeof collectInsights>>;

/**
 * Checked before any request, so a typo in --out costs nothing: an .xlsx name, in a folder that
 * exists (made if missing) and can be written.
 */
async function prepareOutFile(out: string): Promise<void> {
  if (extname(out).toLowerCase() !== ".xlsx") {
    throw new UsageError(`--out "${out}" must name an .xlsx file, e.g. --out insights.xlsx`);
  }
  const dir = dirname(resolve(out));
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(
      `cannot write --out "${out}" (${code} on ${dir}) — choose a folder you can write to`,
    );
  }
}

/** An export compares its range with the equal range just before it. */
function rangePeriods(current: Period): PeriodPair {
  return {
    kind: "previous_day",
    compareTo: "previous_period",
    current,
    prior: priorOfRange(current),
  };
}

/**
 * A range the API will not serve at all is the user's to fix: before its lookback (say the
 * earliest date allowed), or starting after the last day it has.
 */
function refuseUnservedRange(collected: Collected, from: string): void {
  for (const { current } of collected) {
    if (current.ok) continue;
    if (current.error.code === "LOOKBACK") {
      throw new UsageError(`--from is too early: ${current.error.message}`);
    }
    // Dates and their order were checked here, so the API's refusal means its today (to which
    // it clamps a future end) comes before --from.
    if (current.error.code === "INVALID_RANGE") {
      throw new UsageError(
        `--from ${from} is in the future for the insights API, which has data up to today — choose an earlier --from`,
      );
    }
  }
}

/** The end date the API actually served when it clamped the requested `end` (a future day), else null. */
function servedEnd(collected: Collected, end: string): string | null {
  const ends = collected.flatMap((p) => (p.current.ok ? [p.current.insights.endDate] : []));
  const earliest = ends.sort()[0];
  return earliest !== undefined && earliest < end ? earliest : null;
}

function drawProgress(stream: NodeJS.WriteStream, done: number, total: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  stream.write(
    `\r  fetching [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${total} projects`,
  );
}

/**
 * What the range's last day is, when it is not a settled day: today (the API clamps a future
 * end to its today, so a clamped range ends on one), or, when no project was served to clamp
 * it, a day still to come.
 */
export function endNote(
  end: string,
  clamped: boolean,
  today: string,
  timezone: string,
): string | null {
  if (clamped || end === today) {
    return `${end} is today (${timezone}): its figures are partial until the day is over`;
  }
  if (end > today) return `${end} is after today (${today}, ${timezone}): it has no figures yet`;
  return null;
}
