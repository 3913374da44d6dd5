import { DEFAULT_RULES, MIN_CHANGE_PCT } from "../report/deltas.js";
import type {
  AmountDelta,
  AmountFigure,
  AvailableProject,
  FiringAlert,
  RateDelta,
  RateFigure,
  Report,
} from "../report/types.js";
import { deltaView, deltaWords } from "./delta-view.js";
import { formatRate, roundTo } from "./format.js";
import { idAddsToName } from "./project-name.js";
import { shownChange } from "./shown-change.js";
import { silentNews } from "./silent-news.js";
import { skippingNews } from "./skipping-news.js";
import { sliceWords } from "./slice-words.js";

// What a digest says first, decided once for every renderer (Slack text and first block, the
// email's preheader and first line, `preview`'s first line): silent projects, alerts firing now,
// projects that could not be fetched, then the significant changes by size, worse before better.
// "Significant" is the delta view's verdict, never re-derived here. Names are as given: each
// renderer escapes them for its medium.

/** How many news lines a digest opens with before "and N more". */
export const NEWS_SHOWN = 3;

/** The one name of the news section in every renderer (it replaced "Top movers"). */
export const NEWS_TITLE = "What changed";

/** The words of a day without news. */
export const NO_NEWS = "No significant change";

export type NewsKind = "silent" | "alert" | "unavailable" | "worse" | "better" | "changed";

/** One line of news: a project (or the team) and what happened to it. */
export interface NewsLine {
  kind: NewsKind;
  /** null for the team. */
  projectId: string | null;
  name: string;
  /** What follows the name, with its separator: ": flaky rate 0.3% → 9.0% (+8.7 pp, worse)". */
  what: string;
  /** The line in a few words, for a mail's subject: "Payments UI failed tests 10 → 80". */
  short: string;
  /** The figure a change line is about; absent for silent, alert and unavailable lines. */
  figure?: NewsFigure;
  /** Bad news mentions and copies the project's owners; good and neutral news never do. */
  tone: "bad" | "good" | "neutral";
}

export interface DigestNews {
  /** Every line, in reading order. */
  lines: NewsLine[];
  /** The first NEWS_SHOWN lines. */
  shown: NewsLine[];
  /** Lines not shown: "and N more". */
  more: number;
  /** The two headline figures in words: "run pass rate 95.1% (≈ +0.2 pp), flaky rate 2.0% (+1.1 pp)". */
  figures: string;
}

/** The news of a report, in the order every renderer opens with. */
export function digestNews(report: Report): DigestNews {
  const names = new Map(report.projects.map((p) => [p.projectId, p.name]));
  const lines: NewsLine[] = [
    ...silentNews(report).map((n) => ({
      kind: "silent" as const,
      projectId: n.projectId,
      name: n.name,
      what: ` ${n.what}`,
      short: `${n.name} had no runs`,
      tone: "bad" as const,
    })),
    ...[...report.alerts].sort(bySeverity).map((a) => alertLine(a, names)),
    ...report.projects.flatMap((p) =>
      p.status === "unavailable"
        ? [
            {
              kind: "unavailable" as const,
              projectId: p.projectId,
              name: p.name,
              what: `${idAddsToName(p.name, p.projectId) ? ` (${p.projectId})` : ""} ${UNAVAILABLE_WORDS}`,
              short: `${p.name} could not be fetched`,
              tone: "bad" as const,
            },
          ]
        : [],
    ),
    // A better pass rate bought with more skips is bad news, named before the changes.
    ...skippingNews(report),
    ...changeLines([
      // The team's own change is news too: a day never says "No significant change" beside a
      // coloured team figure.
      {
        projectId: null,
        name: "Team",
        silent: false,
        current: report.total.current,
        prior: report.total.prior,
        deltas: report.total.deltas,
      },
      ...report.projects.filter((p): p is AvailableProject => p.status === "ok"),
    ]),
  ];
  return {
    lines,
    shown: lines.slice(0, NEWS_SHOWN),
    more: Math.max(0, lines.length - NEWS_SHOWN),
    figures: headlineFigures(report),
  };
}

/** What the channel says of a project that could not be fetched (the advice goes to the log). */
export const UNAVAILABLE_WORDS = "could not be fetched \u2014 the team figures leave it out";

/** "Checkout flows: flaky rate 0.3% → 9.0% (+8.7 pp, worse)". */
export function newsSentence(line: NewsLine): string {
  return `${line.name}${line.what}`;
}

/** What a subject ends with: the first line of news in few words, or "no significant change". */
export function newsVerdict(news: DigestNews): string {
  return news.lines[0]?.short ?? NO_NEWS.toLowerCase();
}

/** "and 2 more", or "" when every line is shown. */
export function moreWords(news: DigestNews): string {
  return news.more > 0 ? `and ${news.more} more` : "";
}

/**
 * The news as one line, for a notification or a preheader: the shown sentences and "and N
 * more", then the two headline figures; `No significant change` first on a day without news.
 */
export function newsSummary(news: DigestNews, sentence = newsSentence): string {
  if (news.lines.length === 0) return `${NO_NEWS}; ${news.figures}`;
  const more = moreWords(news);
  return [...news.shown.map(sentence), ...(more ? [more] : []), news.figures].join("; ");
}

/** Every figure a digest colours, in words, in the order ties between equal changes are read. */
export const NEWS_FIGURES = [
  "runPassRate",
  "flakyRate",
  "testsFailed",
  "testsTimedOut",
  "testPassRate",
  "meanRunDurationMs",
  "runs",
  "tests",
] as const satisfies readonly (RateFigure | AmountFigure)[];

export type NewsFigure = (typeof NEWS_FIGURES)[number];

/** How a figure is named in a news line and a subject. */
export const FIGURE_WORDS: Record<NewsFigure, string> = {
  runPassRate: "run pass rate",
  flakyRate: "flaky rate",
  testsFailed: "failed tests",
  testsTimedOut: "timed-out tests",
  testPassRate: "test pass rate",
  meanRunDurationMs: "mean run duration",
  runs: "runs",
  tests: "test results",
};

interface Change {
  line: NewsLine;
  size: number;
  order: number;
}

type Changed = Pick<
  AvailableProject,
  "name" | "silent" | "current" | "prior" | "deltas" | "slices"
> & {
  projectId: string | null;
};

/**
 * Every figure that is news, for the team and each project: exactly those the delta view calls
 * `worse`, `better` or `changed` (what every renderer colours or marks with an arrow), so nothing
 * coloured is ever left out of the news. The order, after silent projects, alerts and projects
 * not fetched: worse, then better, then changed (runs and test results, neither good nor bad);
 * within each, the larger change first, measured in news thresholds so rates and counts compare
 * (a rate's change in steps of 0.5 pp, the default `min_change_pp`; a count's or duration's in
 * steps of 10%; a count up from 0 counts as the largest); ties by name, then figure, the same on
 * every run.
 */
function changeLines(projects: readonly Changed[]): NewsLine[] {
  const changes: Change[] = [];
  for (const project of projects) {
    if (project.silent) continue;
    NEWS_FIGURES.forEach((figure, order) => {
      const delta = project.deltas[figure];
      const current = project.current[figure];
      const prior = project.prior?.[figure];
      if (delta.kind !== "change" || current === null || prior === null || prior === undefined)
        return;
      const verdict = deltaView(figure, delta).verdict;
      if (verdict !== "worse" && verdict !== "better" && verdict !== "changed") return;
      const shown = shownChange(figure, prior, current);
      const words = [shown.delta, verdict === "changed" ? "" : verdict].filter((w) => w !== "");
      const judged = words.length === 0 ? "" : ` (${words.join(", ")})`;
      changes.push({
        line: {
          kind: verdict,
          projectId: project.projectId,
          name: project.name,
          figure,
          what: `: ${FIGURE_WORDS[figure]} ${shown.before} \u2192 ${shown.after}${judged}${sliceWords(figure, project.slices)}`,
          short: `${project.name} ${FIGURE_WORDS[figure]} ${shown.before} \u2192 ${shown.after}`,
          tone: verdict === "worse" ? "bad" : verdict === "better" ? "good" : "neutral",
        },
        size: changeSize(delta),
        order,
      });
    });
  }
  const rank = { worse: 0, better: 1, changed: 2 } as const;
  const rankOf = (c: Change) => rank[c.line.kind as keyof typeof rank];
  return changes
    .sort(
      (a, b) =>
        rankOf(a) - rankOf(b) ||
        b.size - a.size ||
        byText(a.line.name, b.line.name) ||
        a.order - b.order,
    )
    .map((c) => c.line);
}

/** A change in news thresholds, rounded so float noise never reorders equal-looking changes. */
function changeSize(delta: RateDelta | AmountDelta): number {
  if (delta.kind !== "change") return 0;
  const steps =
    "pp" in delta
      ? Math.abs(delta.pp) / DEFAULT_RULES.minChangePp
      : delta.pct === null
        ? Number.POSITIVE_INFINITY
        : Math.abs(delta.pct) / MIN_CHANGE_PCT;
  return Number.isFinite(steps) ? Math.round(steps * 100) / 100 : steps;
}

function alertLine(alert: FiringAlert, names: Map<string, string>): NewsLine {
  const name = alert.projectId === null ? "Team" : (names.get(alert.projectId) ?? alert.projectId);
  const metric = alert.metricName ?? alert.alert;
  const side = alert.direction ?? "above";
  const what = `${metric} ${formatRate(alert.value)} \u2014 ${side} ${alert.severity} ${thresholdWords(alert.threshold)}`;
  return {
    kind: "alert",
    projectId: alert.projectId,
    name,
    what: ` ${what}`,
    short: `${name} ${what}`,
    tone: "bad",
  };
}

/** 0.06 → "6%", 0.025 → "2.5%": a threshold as it was configured. */
function thresholdWords(fraction: number): string {
  return `${roundTo(fraction * 100, 2)}%`;
}

function bySeverity(a: FiringAlert, b: FiringAlert): number {
  return Number(b.severity === "critical") - Number(a.severity === "critical");
}

function headlineFigures(report: Report): string {
  const { current, deltas } = report.total;
  const rate = (value: number | null, figure: "runPassRate" | "flakyRate") => {
    const view = deltaView(figure, deltas[figure]);
    const words = view.verdict === "unavailable" ? "" : deltaWords(view);
    return words === "" ? formatRate(value) : `${formatRate(value)} (${words})`;
  };
  return `run pass rate ${rate(current.runPassRate, "runPassRate")}, flaky rate ${rate(current.flakyRate, "flakyRate")}`;
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
