import type { FetchOutcome } from "../insights/types.js";
import { figuresFromCounts } from "./figures.js";
import { type FetchedSlice, splitPartition, splitTags } from "./slices.js";
import type {
  AvailableProject,
  ChangeRules,
  Figures,
  ProjectSlices,
  SliceDimension,
  SliceSplit,
} from "./types.js";

/** One slice of a project as fetched for both periods. */
export interface SliceInput {
  dimension: SliceDimension;
  name: string;
  current: FetchOutcome;
  prior: FetchOutcome;
}

/**
 * A project's splits from its fetched slices, judged by the project's own rules. A split is
 * left out, with the reason in `problems`, when a slice of it could not be fetched or its
 * "other" would be negative: a split is shown right or not at all.
 */
export function projectSlices(
  project: Pick<AvailableProject, "name" | "current" | "prior">,
  inputs: readonly SliceInput[],
  rules: ChangeRules,
): { slices: ProjectSlices | null; problems: string[] } {
  const { prior } = project;
  if (prior === null) return { slices: null, problems: [] };
  const problems: string[] = [];
  const splits: SliceSplit[] = [];
  for (const dimension of ["branch", "author", "tags"] as const) {
    const of = inputs.filter((i) => i.dimension === dimension);
    if (of.length === 0) continue;
    const fetched = fetchedSlices(of);
    if (!fetched.ok) {
      problems.push(`${project.name}: ${dimension} split left out: ${fetched.reason}`);
      continue;
    }
    if (dimension === "tags") {
      splits.push(splitTags(fetched.slices, rules));
      continue;
    }
    const split = splitPartition(
      dimension,
      { current: project.current, prior },
      fetched.slices,
      rules,
    );
    if (split.ok) splits.push(split.split);
    else problems.push(`${project.name}: ${split.reason}`);
  }
  return { slices: splits.length > 0 ? { splits } : null, problems };
}

function fetchedSlices(
  inputs: readonly SliceInput[],
): { ok: true; slices: FetchedSlice[] } | { ok: false; reason: string } {
  const slices: FetchedSlice[] = [];
  for (const input of inputs) {
    const current = figuresOf(input.current);
    const prior = figuresOf(input.prior);
    if (typeof current === "string") return { ok: false, reason: `${input.name}: ${current}` };
    if (typeof prior === "string") return { ok: false, reason: `${input.name}: ${prior}` };
    slices.push({ name: input.name, current, prior });
  }
  return { ok: true, slices };
}

/** The API's own totals of a slice (as the project's figures are), or why there are none. */
function figuresOf(outcome: FetchOutcome): Figures | string {
  if (!outcome.ok) return outcome.error.message;
  // A slice with days missing would not add up with the project's figures.
  if ((outcome.insights.missingDays ?? []).length > 0) return "days missing";
  const { runs, tests } = outcome.insights.overall;
  return figuresFromCounts(runs, tests);
}
