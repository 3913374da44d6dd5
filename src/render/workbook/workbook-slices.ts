import type { AvailableProject, Report, Slice, SliceSplit } from "../../report/types.js";
import { deltaView, toneOf } from "../delta-view.js";
import { type CellTone, cellText } from "./workbook-cells.js";
import type { SheetColumn, TableSheet } from "./workbook-sheet.js";

// The `Slices` sheet, written when a digest split its news by attribution (issue 37): one row
// per slice of each split, with its own figures, changes and verdicts, and for branches and
// authors its share of each rate's change as rate and mix effects (they add up, over a split's
// rows, to the project's change). Tag slices overlap: they carry no effects.

interface SliceRow {
  project: AvailableProject;
  split: SliceSplit;
  slice: Slice;
}

type Col = SheetColumn<SliceRow>;

const change = (row: SliceRow, figure: "flakyRate" | "runPassRate"): number | null => {
  const delta = row.slice.deltas[figure];
  return delta.kind === "change" ? delta.pp : null;
};
const tone = (row: SliceRow, figure: "flakyRate" | "runPassRate"): CellTone =>
  toneOf(deltaView(figure, row.slice.deltas[figure]));

const COLUMNS: readonly Col[] = [
  { header: "Project", kind: "text", value: (r) => cellText(r.project.name) },
  { header: "Project ID", kind: "text", value: (r) => cellText(r.project.projectId) },
  { header: "Split", kind: "text", value: (r) => r.split.dimension },
  { header: "Slice", kind: "text", value: (r) => cellText(r.slice.name) },
  { header: "Runs", kind: "count", value: (r) => r.slice.current.runs },
  { header: "Runs prior", kind: "count", value: (r) => r.slice.prior.runs },
  { header: "Run pass rate", kind: "rate", value: (r) => r.slice.current.runPassRate },
  { header: "Run pass rate prior", kind: "rate", value: (r) => r.slice.prior.runPassRate },
  {
    header: "Run pass change (pp)",
    kind: "pp",
    value: (r) => change(r, "runPassRate"),
    tone: (r) => tone(r, "runPassRate"),
  },
  { header: "Flaky rate", kind: "rate", value: (r) => r.slice.current.flakyRate },
  { header: "Flaky rate prior", kind: "rate", value: (r) => r.slice.prior.flakyRate },
  {
    header: "Flaky change (pp)",
    kind: "pp",
    value: (r) => change(r, "flakyRate"),
    tone: (r) => tone(r, "flakyRate"),
  },
  {
    header: "Flaky verdict",
    kind: "text",
    value: (r) => deltaView("flakyRate", r.slice.deltas.flakyRate).verdict,
    tone: (r) => tone(r, "flakyRate"),
  },
  {
    header: "Flaky rate effect (pp)",
    kind: "pp",
    value: (r) => r.slice.effects.flakyRate?.ratePp ?? null,
  },
  {
    header: "Flaky mix effect (pp)",
    kind: "pp",
    value: (r) => r.slice.effects.flakyRate?.mixPp ?? null,
  },
  { header: "Failed tests", kind: "count", value: (r) => r.slice.current.testsFailed },
  { header: "Failed tests prior", kind: "count", value: (r) => r.slice.prior.testsFailed },
];

/** The Slices sheet, or null when no project of the report was split. */
export function slicesSheet(report: Report): TableSheet<SliceRow> | null {
  const rows: SliceRow[] = report.projects.flatMap((project) =>
    project.status !== "ok" || !project.slices
      ? []
      : project.slices.splits.flatMap((split) =>
          split.slices.map((slice) => ({ project, split, slice })),
        ),
  );
  if (rows.length === 0) return null;
  return { name: "Slices", columns: COLUMNS, rows: () => rows, frozenColumns: 4 };
}
