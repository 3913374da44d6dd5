import type * as z from "zod";

/** A body that did not fit: `field` is the path of the offending value, e.g. `runs.overall_data`. */
export interface ShapeProblem {
  field: string;
  problem: string;
}

/** The outcome of checking a response body against its schema. */
export type Parsed<T> = { ok: true; value: T } | ({ ok: false } & ShapeProblem);

/** The first issue of a zod error, as the field it concerns and what was expected there. */
export function problemOf(error: z.ZodError): Parsed<never> {
  const issue = error.issues[0];
  if (!issue) return fail("(body)", "did not match the documented shape");
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
  return fail(fieldPath(issue.path), `${issue.message.replace(/^Invalid input: /, "")}${more}`);
}

/** A failed check of `field`. */
export function fail(field: string, problem: string): Parsed<never> {
  return { ok: false, field, problem };
}

/** `["runs", "runs_volume_data", 3, "date"]` → `runs.runs_volume_data[3].date`. */
function fieldPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) {
    text += typeof part === "number" ? `[${part}]` : `${text ? "." : ""}${String(part)}`;
  }
  return text || "(body)";
}
