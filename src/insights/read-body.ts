import { MalformedResponseError } from "../errors.js";
import type { RequestTarget } from "./http-error.js";
import type { Parsed } from "./shape-problem.js";

/** A 2xx body, checked: the value, or the error to throw when no later attempt does better. */
export type BodyReading<T> = { ok: true; value: T } | { ok: false; error: MalformedResponseError };

/** Parses `text` as JSON and checks it with `parse`; a failure names the project and the field. */
export function readBody<T>(
  text: string,
  target: RequestTarget,
  attempts: number,
  parse: (body: unknown) => Parsed<T>,
): BodyReading<T> {
  const what = describeRequest(target, attempts);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return malformed(
      `the insights API sent a body that is not JSON for ${what} — check that INSIGHTS_API_URL points at the API, ending with /api/external/v1; if it does, something between us cuts answers short`,
      target,
      attempts,
      "(body)",
    );
  }
  const parsed = parse(body);
  if (parsed.ok) return parsed;
  return malformed(
    `the insights API sent an unexpected body for ${what}: ${parsed.field}: ${parsed.problem} — try again later; if it persists, the API no longer sends what it documents`,
    target,
    attempts,
    parsed.field,
  );
}

/** `project "abc" (GET /projects/abc/insights, tried 3 times)`, or `GET /projects (tried once)`. */
function describeRequest(target: RequestTarget, attempts: number): string {
  const tries = attempts === 1 ? "once" : `${attempts} times`;
  const request = `GET ${target.path}, tried ${tries}`;
  return target.projectId === null
    ? `GET ${target.path} (tried ${tries})`
    : `project "${target.projectId}" (${request})`;
}

function malformed(
  message: string,
  target: RequestTarget,
  attempts: number,
  field: string,
): BodyReading<never> {
  const context = {
    status: 200,
    path: target.path,
    attempts,
    field,
    ...(target.projectId === null ? {} : { projectId: target.projectId }),
  };
  return { ok: false, error: new MalformedResponseError(message, context) };
}
