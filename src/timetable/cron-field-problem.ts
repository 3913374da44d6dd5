// Says in words what is wrong with one field of a cron expression. cron-parser only tells us
// that a field is invalid; its own wording ("constraint error, got range 1-NaN expected range
// 0-7") speaks of its internals, not of what someone editing a config wrote.

interface FieldRule {
  min: number;
  max: number;
  /** Names allowed instead of numbers, lowercase, the first at `min`. */
  names: readonly string[];
  /** How the allowed values read in a message. */
  allowed: string;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

const CRON_FIELD_RULES: Readonly<Record<string, FieldRule>> = {
  minute: { min: 0, max: 59, names: [], allowed: "0–59" },
  hour: { min: 0, max: 23, names: [], allowed: "0–23" },
  "day-of-month": { min: 1, max: 31, names: [], allowed: "1–31" },
  month: { min: 1, max: 12, names: MONTHS, allowed: "1–12 or jan–dec" },
  "day-of-week": { min: 0, max: 7, names: DAYS, allowed: "0–7 (0 and 7 are Sunday) or sun–sat" },
};

/** What is wrong with `field`, the cron field called `name`, in words; null when nothing is seen. */
export function cronFieldProblem(name: string, field: string): string | null {
  const rule = CRON_FIELD_RULES[name];
  if (!rule) return null;
  for (const item of field.split(",")) {
    if (item === "")
      return `its list "${field}" has an empty item — separate values by single commas`;
    const problem = itemProblem(item, rule);
    if (problem) return problem;
  }
  return null;
}

function itemProblem(item: string, rule: FieldRule): string | null {
  const [base = "", step, ...extra] = item.split("/");
  if (extra.length > 0) return `"${item}" has more than one / — write start/step, e.g. */15`;
  if (step !== undefined && !/^[1-9]\d*$/.test(step)) {
    return `the step in "${item}" must be a whole number of at least 1, e.g. */15`;
  }
  if (base === "*") return null;
  const ends = base.split("-");
  if (ends.length > 2) return `"${base}" is not a range — write start-end, e.g. 1-5`;
  if (ends.some((end) => end === "")) {
    return `the range "${base}" lacks ${ends[0] === "" ? "its start" : "its end"} — write start-end, e.g. ${rule.min + 1}-${Math.min(rule.max, rule.min + 5)}`;
  }
  const values: number[] = [];
  for (const end of ends) {
    const value = fieldValue(end, rule);
    if (value === null)
      return `"${end}" is not a number${rule.names.length > 0 ? " or a name" : ""} — allowed: ${rule.allowed}`;
    if (value < rule.min || value > rule.max)
      return `${end} is out of range — allowed: ${rule.allowed}`;
    values.push(value);
  }
  const [from = 0, to = 0] = values;
  if (values.length === 2 && from > to) {
    return `the range "${base}" runs backwards — write the smaller value first, or a list (e.g. 5,6,0)`;
  }
  return null;
}

function fieldValue(text: string, rule: FieldRule): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  const index = rule.names.indexOf(text.toLowerCase());
  return index < 0 ? null : index + rule.min;
}
