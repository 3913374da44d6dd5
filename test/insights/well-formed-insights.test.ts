import { isDeepStrictEqual } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { insightsBody, parseInsightsBody } from "../../src/insights/response-schema.js";
import { isWellFormedInsights } from "../../src/insights/well-formed-insights.js";
import {
  MAX_RUN_DURATION_MS,
  RUN_COUNT_KEYS,
  RUN_FIGURES,
  RUN_PERCENT_KEYS,
  TEST_COUNT_KEYS,
  TEST_FIGURES,
  TEST_PERCENT_KEYS,
} from "../../src/insights/wire-figures.js";
import { wireInsights } from "./wire-insights.js";

// The plain check takes a body exactly when zod's schema does, compiled (the daemon) or jitless
// (one-shot commands): every field of a full day, an empty day and the totals, set to each value
// below (or removed), gets the same answer from all three.

const VALUES: readonly unknown[] = [
  undefined,
  null,
  0,
  -0,
  7,
  -1,
  0.5,
  100,
  100.5,
  2 ** 53,
  2 ** 53 - 1,
  MAX_RUN_DURATION_MS,
  MAX_RUN_DURATION_MS + 1,
  "7",
  "",
  true,
  {},
  [],
];
const DATES: readonly unknown[] = [
  "Nov  1, 2026",
  "Nov 1, 2026",
  "Nov 31, 2026",
  "Feb 29, 2028",
  "Feb 29, 2027",
  "nov  1, 2026",
  "2026-11-01",
  "2026-02-30",
  "2026-11-01T00:00:00Z",
  20261101,
  "Europe/Berlin",
];

const FIGURE_KEYS = [...Object.keys(RUN_FIGURES), ...Object.keys(TEST_FIGURES)];

/** Every path the mutations touch, with the values tried there. */
function cases(): { path: (string | number)[]; values: readonly unknown[] }[] {
  // The body itself first: not an object, or an empty one.
  const out: { path: (string | number)[]; values: readonly unknown[] }[] = [
    { path: [], values: VALUES },
  ];
  for (const field of ["start_date", "end_date", "timezone"]) {
    out.push({ path: [field], values: [...VALUES, ...DATES] });
  }
  for (const [group, list] of [
    ["runs", "runs_volume_data"],
    ["tests", "tests_volume_data"],
  ] as const) {
    out.push({ path: [group], values: VALUES });
    out.push({ path: [group, list], values: VALUES });
    out.push({ path: [group, "overall_data"], values: VALUES });
    for (const day of [0, 1]) {
      out.push({ path: [group, list, day], values: VALUES });
      out.push({ path: [group, list, day, "date"], values: [...VALUES, ...DATES] });
      for (const key of FIGURE_KEYS) out.push({ path: [group, list, day, key], values: VALUES });
    }
    for (const key of FIGURE_KEYS) {
      out.push({ path: [group, "overall_data", key], values: VALUES });
    }
  }
  return out;
}

/** A copy of `body` with `value` at `path` (removed when undefined: a day leaves its list). */
function withValue(body: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (value !== undefined) at[last] = value;
  else if (Array.isArray(at) && typeof last === "number") at.splice(last, 1);
  else delete at[last];
  return copy;
}

describe("isWellFormedInsights", () => {
  it("takes a body exactly when the schema does, for every field set to every value", () => {
    // Day 1 is empty (only its date): a count given to it alone makes it partial.
    const base = wireInsights("2026-10-31", "2026-11-02", ["2026-11-01"]);
    const disagreements: string[] = [];
    let taken = 0;
    let refused = 0;
    for (const { path, values } of cases()) {
      for (const value of values) {
        const body = withValue(base, path, value);
        const schema = insightsBody.safeParse(body);
        const what = `${path.join(".")} = ${JSON.stringify(value)}`;
        if (isWellFormedInsights(body) !== schema.success) {
          disagreements.push(`${what}: schema ${schema.success}`);
        }
        // zod's parser as the one-shot commands run it (jitless, not compiled to a function):
        // the same answer, so the plain check fits either.
        if (insightsBody.safeParse(body, { jitless: true }).success !== schema.success) {
          disagreements.push(`${what}: schema jitless ${!schema.success}`);
        }
        if (!schema.success) {
          refused++;
          continue;
        }
        taken++;
        // Taken as it came, the body maps to what zod's copy of it maps to.
        const plain = parseInsightsBody(body, "p");
        if (!isDeepStrictEqual(plain, parseInsightsBody(schema.data, "p"))) {
          disagreements.push(`${what}: mapped otherwise than zod's copy`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    // Both answers were tried many times over.
    expect(taken).toBeGreaterThan(400);
    expect(refused).toBeGreaterThan(900);
  });

  it("refuses more flaky tests than passed ones, as the schema does, in a day and in the totals", () => {
    const base = wireInsights("2026-10-31", "2026-11-02");
    for (const path of [
      ["tests", "tests_volume_data", 0],
      ["tests", "overall_data"],
    ]) {
      const passed = withValue(base, [...path, "passed_tests_count"], 40);
      for (const [flaky, fits] of [
        [40, true],
        [41, false],
      ] as const) {
        const body = withValue(passed, [...path, "flaky_tests_count"], flaky);
        expect(insightsBody.safeParse(body).success).toBe(fits);
        expect(isWellFormedInsights(body)).toBe(fits);
      }
    }
  });

  it("names every figure of the schema in one of its lists of counts, rates and the duration", () => {
    expect([...RUN_COUNT_KEYS, ...RUN_PERCENT_KEYS, "average_run_duration"].sort()).toEqual(
      Object.keys(RUN_FIGURES).sort(),
    );
    expect([...TEST_COUNT_KEYS, ...TEST_PERCENT_KEYS].sort()).toEqual(
      Object.keys(TEST_FIGURES).sort(),
    );
  });
});

describe("parseInsightsBody", () => {
  it("leaves a body that fits to the plain check, and one that does not to zod, which names the field", () => {
    const safeParse = vi.spyOn(insightsBody, "safeParse");
    try {
      const fits = parseInsightsBody(wireInsights("2026-10-31", "2026-11-02"), "p");
      expect(fits.ok).toBe(true);
      expect(safeParse).not.toHaveBeenCalled();
      const body = withValue(
        wireInsights("2026-10-31", "2026-11-02"),
        ["runs", "runs_volume_data", 2, "failed_runs_count"],
        -1,
      );
      const refused = parseInsightsBody(body, "p");
      expect(safeParse).toHaveBeenCalledTimes(1);
      expect(refused).toMatchObject({
        ok: false,
        field: "runs.runs_volume_data[2].failed_runs_count",
      });
    } finally {
      safeParse.mockRestore();
    }
  });
});
