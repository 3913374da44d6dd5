import { deltaView } from "../../../render/delta-view.js";
import {
  digestNews,
  type NewsLine,
  newsSentence,
  newsSummary,
} from "../../../render/digest-news.js";
import { linksPerProject, projectDashboardUrl } from "../../../render/project-links.js";
import { worstFirst } from "../../../render/worst-first.js";
import type {
  AmountFigure,
  Deltas,
  Figures,
  ProjectReport,
  RateEffects,
  RateFigure,
  Report,
  SliceSplit,
} from "../../../report/types.js";
import {
  WEBHOOK_BODY_VERSION,
  type WebhookDigestBody,
  type WebhookFigures,
  type WebhookProject,
} from "./webhook-body-schema.js";

// A digest as the signed webhook's body: the same news, figures and verdicts as every other
// renderer (the news model and the delta view), as numbers a program can route on.

const WIRE_FIGURES: Record<keyof WebhookFigures, RateFigure | AmountFigure> = {
  runs: "runs",
  run_pass_rate: "runPassRate",
  flaky_rate: "flakyRate",
  test_pass_rate: "testPassRate",
  tests: "tests",
  tests_failed: "testsFailed",
  tests_timed_out: "testsTimedOut",
  mean_run_duration_ms: "meanRunDurationMs",
};

/** The webhook body of a digest. */
export function webhookDigestBody(report: Report, key: string): WebhookDigestBody {
  const news = digestNews(report);
  const available = worstFirst(
    report.projects.flatMap((p) => (p.status === "ok" ? [p] : [])),
    news,
  );
  const unavailable = report.projects.filter((p) => p.status === "unavailable");
  return {
    version: WEBHOOK_BODY_VERSION,
    kind: "digest",
    key,
    team: { ...report.team },
    digest: report.digest,
    period: {
      start: report.periods.current.start,
      end: report.periods.current.end,
      prior: { ...report.periods.prior },
    },
    news: { summary: newsSummary(news), lines: news.lines.map(wireNewsLine) },
    figures: wireFigures(report.total.current, report.total.prior, report.total.deltas),
    projects: [...available, ...unavailable].map((p) => wireProject(p, report.dashboardUrl)),
  };
}

/** One news line on the wire. */
function wireNewsLine(line: NewsLine): WebhookDigestBody["news"]["lines"][number] {
  return {
    kind: line.kind,
    project_id: line.projectId,
    name: line.name,
    text: newsSentence(line),
    tone: line.tone,
  };
}

function wireProject(project: ProjectReport, dashboard: string | null): WebhookProject {
  const dashboardUrl =
    dashboard === null
      ? null
      : linksPerProject(dashboard)
        ? projectDashboardUrl(dashboard, project.projectId)
        : dashboard;
  if (project.status === "unavailable") {
    return {
      id: project.projectId,
      name: project.name,
      status: "unavailable",
      figures: null,
      note: null,
      dashboard_url: dashboardUrl,
    };
  }
  return {
    id: project.projectId,
    name: project.name,
    status: project.silent ? "silent" : "ok",
    figures: wireFigures(project.current, project.prior, project.deltas),
    note: project.priorNote,
    dashboard_url: dashboardUrl,
    ...(project.slices ? { slices: project.slices.splits.map(wireSplit) } : {}),
  };
}

type WireSplit = NonNullable<WebhookProject["slices"]>[number];

function wireSplit(split: SliceSplit): WireSplit {
  return {
    dimension: split.dimension,
    partition: split.partition,
    effects: wireEffects(split.effects),
    slices: split.slices.map((s) => ({
      name: s.name,
      other: s.other,
      figures: wireFigures(s.current, s.prior, s.deltas),
      effects: wireEffects(s.effects),
    })),
  };
}

const WIRE_RATES = {
  run_pass_rate: "runPassRate",
  flaky_rate: "flakyRate",
  test_pass_rate: "testPassRate",
} as const satisfies Record<string, RateFigure>;

function wireEffects(effects: Partial<Record<RateFigure, RateEffects>>): WireSplit["effects"] {
  const wire: WireSplit["effects"] = {};
  for (const [name, figure] of Object.entries(WIRE_RATES)) {
    const e = effects[figure];
    if (e) wire[name as keyof typeof WIRE_RATES] = { rate_pp: e.ratePp, mix_pp: e.mixPp };
  }
  return wire;
}

function wireFigures(current: Figures, prior: Figures | null, deltas: Deltas): WebhookFigures {
  const entries = Object.entries(WIRE_FIGURES).map(([wire, figure]) => {
    const delta = deltas[figure];
    const view = deltaView(figure, delta);
    const change = delta.kind !== "change" ? null : "pp" in delta ? delta.pp : delta.pct;
    return [
      wire,
      {
        current: current[figure],
        prior: prior === null ? null : prior[figure],
        delta: { verdict: view.verdict, text: view.text, change },
      },
    ];
  });
  return Object.fromEntries(entries) as WebhookFigures;
}
