import { describe, expect, it } from "vitest";
import { configText, issueLines, parse } from "./config-builders.js";

// Relative thresholds in config: a sign makes a threshold an offset from `against:` a
// baseline; each mistake is named with its fix.

const A = "teams[0].alerts[0]";

/** The valid config's alert with these fields instead of its thresholds. */
function alertWith(fields: Record<string, unknown>): string {
  return configText({
    [`${A}.warn_at`]: undefined,
    [`${A}.critical_at`]: undefined,
    [`${A}.clear_at`]: undefined,
    ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${A}.${k}`, v])),
  });
}

const regression = {
  window: "previous_day",
  against: "median_of_4_weeks",
  warn_at: "+1",
  critical_at: "+3",
  clear_at: "+0.5",
};

describe("relative thresholds in config", () => {
  it("resolve to offsets from the baseline in pp", () => {
    const result = parse(alertWith(regression));
    if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
    expect(result.config.teams[0]?.alerts[0]).toMatchObject({
      warnAt: 1,
      criticalAt: 3,
      clearAt: 0.5,
      against: { baseline: "median_of_4_weeks", by: "points" },
    });
  });

  it("resolve to a percent of the normal, negative for a metric bad when low", () => {
    const result = parse(
      alertWith({
        metric: "run_pass_rate",
        against: "median_of_4_weeks",
        warn_at: "-10%",
        critical_at: "-20%",
        clear_at: "-5%",
      }),
    );
    if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
    expect(result.config.teams[0]?.alerts[0]).toMatchObject({
      warnAt: -10,
      criticalAt: -20,
      clearAt: -5,
      against: { baseline: "median_of_4_weeks", by: "percent" },
    });
  });

  it("absolute thresholds have no baseline", () => {
    const result = parse(configText());
    if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
    expect(result.config.teams[0]?.alerts[0]?.against).toBeNull();
  });

  it("a creep metric takes minutes, or a percent of its normal", () => {
    const minutes = parse(
      alertWith({ metric: "mean_run_duration", warn_at: 15, critical_at: 20, clear_at: 14 }),
    );
    expect(minutes).toHaveProperty("config");
    const relative = parse(
      alertWith({
        metric: "mean_run_duration",
        against: "median_of_4_weeks",
        warn_at: "+20%",
        critical_at: "+50%",
        clear_at: "+10%",
      }),
    );
    expect(relative).toHaveProperty("config");
  });

  const refused: [string, Record<string, unknown>, string][] = [
    [
      "a relative threshold without against",
      { ...regression, against: undefined },
      `${A}.warn_at: "+1" is relative to the project's normal — add against: median_of_4_weeks, or write an absolute threshold such as 3`,
    ],
    [
      "against with absolute thresholds (YAML reads an unquoted +1 as 1)",
      { ...regression, warn_at: 1 },
      `${A}.warn_at: with against: median_of_4_weeks, thresholds are offsets from the normal — write "+1" (quoted, with its sign), or remove against`,
    ],
    [
      "a minus on a metric bad when high",
      { ...regression, warn_at: "-1" },
      `${A}.warn_at: "-1" would warn below the normal, but flaky_rate is bad when high — write "+1"`,
    ],
    [
      "a plus on a metric bad when low",
      { ...regression, metric: "run_pass_rate", warn_at: "+2", critical_at: "-5", clear_at: "-1" },
      `${A}.warn_at: "+2" would warn above the normal, but run_pass_rate is bad when low — write "-2"`,
    ],
    [
      "pp and percent mixed",
      { ...regression, critical_at: "+50%" },
      `${A}.critical_at: "+50%" is a percent of the normal, but warn_at "+1" is in pp — write every threshold of this alert the same way`,
    ],
    [
      "relative thresholds out of order",
      { ...regression, clear_at: "+2" },
      `${A}.clear_at: "+2" must be below warn_at ("+1")`,
    ],
    [
      "a threshold that is neither a number nor a signed offset",
      { ...regression, warn_at: "1pp" },
      `${A}.warn_at: `,
    ],
  ];

  it.each(refused)("refuses %s, naming the fix", (_name, fields, line) => {
    const lines = issueLines(parse(alertWith(fields)));
    expect(lines.some((l) => l.startsWith(line))).toBe(true);
  });
});
