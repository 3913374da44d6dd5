import {
  AuthError,
  BaseUrlError,
  InvalidRangeError,
  LookbackError,
  ProjectNotFoundError,
  type ReporterError,
  UnknownTimezoneError,
  UpstreamError,
} from "../errors.js";
import { tlsProblem } from "./tls-problem.js";

// Maps what the insights API answered to the typed errors of `errors.ts`. Context carries
// the status and the API path (`/projects/abc/insights`), never the key or a full URL.

/** What was asked, for messages and context. `projectId` is null on `GET /projects`. */
export interface RequestTarget {
  path: string;
  projectId: string | null;
  timezone?: string;
  startDate?: string;
  endDate?: string;
}

/** The error for a final non-2xx response (after any retries). */
export function errorForStatus(
  status: number,
  bodyText: string,
  target: RequestTarget,
  attempts: number,
): ReporterError {
  const context = { status, path: target.path, attempts };
  if (status >= 300 && status < 400) {
    return new BaseUrlError(
      `INSIGHTS_API_URL redirected to another place — use the workspace's own https URL, ending with /api/external/v1 (GET ${target.path} answered ${status}; redirects are not followed, so the key never travels to another host)`,
      context,
    );
  }
  if (status === 401) return new AuthError(context);
  const tries = attempts === 1 ? "once" : `${attempts} times`;
  if (status === 429) {
    return new UpstreamError(
      `the insights API kept refusing GET ${target.path} as too many requests (429, tried ${tries}) — lower api.concurrency or try again later`,
      context,
    );
  }
  if (status >= 400 && status < 500 && target.projectId !== null) {
    return projectError(status, apiMessage(bodyText), target.projectId, target, context);
  }
  if (status >= 400 && status < 500) {
    return new UpstreamError(
      `the insights API answered ${status} to GET ${target.path} — check that INSIGHTS_API_URL is the workspace's API base, ending with /api/external/v1`,
      context,
    );
  }
  return new UpstreamError(
    `the insights API answered ${status} to GET ${target.path} (tried ${tries}) — the service is having trouble; try again later`,
    context,
  );
}

/** The error for a request that never got a response: reset, timeout, refused connection. */
export function errorForTransport(
  reason: string,
  target: RequestTarget,
  attempts: number,
  host: string,
): UpstreamError {
  const context = { status: null, path: target.path, attempts, reason };
  const tries = attempts === 1 ? "once" : `${attempts} times`;
  if (reason === "TIMEOUT" || reason.endsWith("_TIMEOUT") || reason === "ETIMEDOUT") {
    return new UpstreamError(
      `the insights API did not answer GET ${target.path} in time (tried ${tries}) — the service is slow or unreachable; try again later`,
      context,
    );
  }
  const tls = tlsProblem(reason, host, "INSIGHTS_API_URL");
  if (tls) return new UpstreamError(tls, context);
  if (reason === "ECONNREFUSED" || reason === "ENOTFOUND") {
    return new UpstreamError(
      `could not connect to ${host} (${reason}) — check the host in INSIGHTS_API_URL`,
      context,
    );
  }
  return new UpstreamError(
    `the connection to ${host} failed during GET ${target.path} (${reason}, tried ${tries}) — try again later`,
    context,
  );
}

/** The error for a body past the size cap; not retried, as the same request brings the same body. */
export function errorForTooLarge(
  status: number,
  target: RequestTarget,
  attempts: number,
  maxResponseBytes: number,
): UpstreamError {
  const what =
    target.projectId === null
      ? `GET ${target.path}`
      : `project "${target.projectId}" (GET ${target.path})`;
  return new UpstreamError(
    `the insights API sent more than ${maxResponseBytes} bytes for ${what} — reading stopped there; if the range really is that large, raise api.max_response_bytes (now ${maxResponseBytes})`,
    { status, path: target.path, attempts, maxResponseBytes },
  );
}

/** 400 and other 4xx of the insights operation: the API's message says which rule was broken. */
function projectError(
  status: number,
  message: string,
  projectId: string,
  target: RequestTarget,
  context: Record<string, unknown>,
): ReporterError {
  if (status === 400) {
    const earliest = /\b(\d{4}-\d{2}-\d{2})\b/.exec(message)?.[1];
    if (earliest && /month|lookback|on or after/i.test(message)) {
      return new LookbackError(earliest, context);
    }
    if (/invalid date range/i.test(message)) {
      return new InvalidRangeError(
        `the insights API refused the date range ${target.startDate ?? "?"} to ${target.endDate ?? "?"} of project "${projectId}" (a date could not be parsed, or the start is after the end) — use ISO dates with the start on or before the end`,
        context,
      );
    }
    if (/time ?zone/i.test(message)) {
      return new UnknownTimezoneError(
        `the insights API does not recognise the timezone "${target.timezone ?? "?"}" — use an IANA name like Europe/Berlin in the team's timezone setting`,
        { ...context, timezone: target.timezone },
      );
    }
  }
  // The seed does not say how an unknown project is answered; any other 4xx is taken as that.
  return new ProjectNotFoundError(projectId, context);
}

/** The `error` string of the API's error body, or "" when the body is not one. */
function apiMessage(bodyText: string): string {
  try {
    const body: unknown = JSON.parse(bodyText);
    if (typeof body === "object" && body !== null && "error" in body) {
      return typeof body.error === "string" ? body.error : "";
    }
  } catch {
    // Not JSON: the status alone decides.
  }
  return "";
}
