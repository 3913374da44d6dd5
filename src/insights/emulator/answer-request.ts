import { aggregateInsights, type DayStart } from "./aggregate-insights.js";
import type { EmulatorProject } from "./emulator-types.js";
import { resolveInsightsRange } from "./resolve-insights-range.js";

/** The path prefix every operation is served under. */
export const API_PREFIX = "/api/external/v1";

export interface EmulatorRequest {
  method: string;
  pathname: string;
  query: Record<string, string>;
  /** The `X-Api-Key` header, when sent. */
  apiKey: string | undefined;
  /** The `Accept` header, when sent. */
  accept: string | undefined;
}

export interface EmulatorAnswer {
  status: number;
  body: unknown;
  /** Which operation answered, so a fault can malform the right shape. */
  operation: "insights" | "projects" | null;
  headers?: Record<string, string>;
}

export interface EmulatorContext {
  key: string;
  projects: readonly EmulatorProject[];
  findProject(id: string): EmulatorProject | undefined;
  /** Today's ISO date in a (valid) zone. */
  todayIn(zone: string): string;
  /** Local midnights, memoised by the caller. */
  dayStart: DayStart;
}

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

const error = (
  status: number,
  message: string,
  headers?: Record<string, string>,
): EmulatorAnswer => ({
  status,
  body: { error: message },
  operation: null,
  ...(headers ? { headers } : {}),
});

/**
 * Answers one request as the insights API would: the key first (401), then `Accept` (406),
 * then the route. Pure apart from the context it is handed.
 */
export function answerRequest(request: EmulatorRequest, context: EmulatorContext): EmulatorAnswer {
  if (request.apiKey !== context.key) return error(401, "Could not authenticate, invalid API Key");
  if (!acceptsJson(request.accept))
    return error(406, "Only application/json responses are available");
  if (!request.pathname.startsWith(`${API_PREFIX}/`)) return error(404, "Not found");
  const segments = request.pathname
    .slice(API_PREFIX.length + 1)
    .split("/")
    .filter(Boolean);
  if (request.method !== "GET") return error(405, "Method not allowed", { allow: "GET" });

  if (segments.length === 1 && segments[0] === "projects")
    return listProjects(request.query, context);
  if (segments.length === 3 && segments[0] === "projects" && segments[2] === "insights") {
    const project = context.findProject(safeDecode(segments[1] ?? ""));
    if (!project) return error(404, "Project not found");
    return insights(project, request.query, context);
  }
  return error(404, "Not found");
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** No `Accept`, a wildcard, or a list that admits `application/json` (the only type served). */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  return accept
    .split(",")
    .map((part) => (part.split(";")[0] ?? "").trim().toLowerCase())
    .some((type) => type === "application/json" || type === "application/*" || type === "*/*");
}

function insights(
  project: EmulatorProject,
  query: Record<string, string>,
  context: EmulatorContext,
): EmulatorAnswer {
  const outcome = resolveInsightsRange(query, context.todayIn);
  if (!outcome.ok) return error(400, outcome.error);
  const tags = (query.tags ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const body = aggregateInsights(
    (from, to) => project.runsBetween(from, to),
    outcome.range,
    {
      branch: query.branch || null,
      author: query.author || null,
      tags,
    },
    context.dayStart,
  );
  return { status: 200, body, operation: "insights" };
}

function listProjects(query: Record<string, string>, context: EmulatorContext): EmulatorAnswer {
  const pageNumber = positiveInteger(query.page_number, 1);
  const requestedSize = positiveInteger(query.page_size, DEFAULT_PAGE_SIZE);
  if (pageNumber === null || requestedSize === null) {
    return error(400, "page_number and page_size must be positive integers");
  }
  const pageSize = Math.min(requestedSize, MAX_PAGE_SIZE);
  const total = context.projects.length;
  const page = context.projects.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
  return {
    status: 200,
    operation: "projects",
    body: {
      projects: page.map((p) => ({ id: p.id, name: p.name })),
      pagination: {
        total_records: total,
        current_page_number: pageNumber,
        total_pages: Math.ceil(total / pageSize),
        page_size: pageSize,
      },
    },
  };
}

function positiveInteger(value: string | undefined, fallback: number): number | null {
  if (value === undefined) return fallback;
  const n = Number(value);
  return /^\d+$/.test(value) && n >= 1 ? n : null;
}
