import { describe, expect, it } from "vitest";
import { evaluateAlert } from "../../src/alerts/evaluate-alert.js";
import type { ScopeWindow } from "../../src/alerts/types.js";
import { formatHistory } from "../../src/commands/history-table.js";
import { projectLines } from "../../src/commands/projects-command.js";
import { storeLines } from "../../src/commands/store-command.js";
import { renderTerminalAlert } from "../../src/render/alert/terminal-alert.js";
import { renderTerminalReport } from "../../src/render/terminal/terminal-report.js";
import { counts, rule } from "../alerts/alert-builders.js";
import { checkoutReport } from "../render/report-fixture.js";

// Issue 35: a name from the API, the config or the ledger reaches the terminal through
// `alerts`, `projects`, `preview`, `history` and `store`; none may clear the screen, recolour
// it, plant a hyperlink, move the cursor or flip the text's direction.

const ESC = "\x1b";
const HOSTILE = [
  `${ESC}[2J${ESC}[31mred`,
  `${ESC}]8;;https://evil.test${ESC}\\click${ESC}]8;;${ESC}\\`,
  "back\bspace\rreturn\x07bell\x9b31m",
  "\u202Eevil\u2066iso\u2069\u200F",
].join(" ");

/** Any control character but the newline that ends a line, and any bidi control. */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const window = (name: string): ScopeWindow => ({
  scope: "p1",
  name,
  current: counts(9, 5_000),
  prior: counts(1, 5_000),
  daily: [counts(1, 5_000), counts(9, 5_000)],
});

describe("names in terminal output", () => {
  it("`alerts` and `preview --alert` print a hostile project name without its control characters", () => {
    const key = `t.alert.flaky.${HOSTILE}`;
    const evaluation = evaluateAlert({
      rule: rule({ confidence: 0.95 }),
      windows: [window(HOSTILE)],
      states: new Map(),
      now: "2026-11-19T08:00:00.000Z",
      key,
    });
    const lines = renderTerminalAlert(
      { name: "flaky", metric: "flaky_rate" },
      { key, window: { start: "2026-11-18", end: "2026-11-18" }, evaluation },
    );
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    expect(lines.join("\n")).toContain("[2J[31mred");
  });

  it("`projects` prints a hostile project id and name without their control characters", () => {
    const lines = projectLines([{ id: `p1${ESC}[2K`, name: HOSTILE }]);
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    expect(lines[1]).toMatch(/^p1\[2K {2}\[2J\[31mred/);
  });

  it("`store` prints a hostile project name, id, filters and zone without their control characters", () => {
    const lines = storeLines(
      {
        projectId: HOSTILE,
        filters: JSON.stringify({ branch: HOSTILE, author: null, tags: [HOSTILE] }),
        timezone: `UTC${ESC}[2J`,
        first: "2026-11-01",
        last: "2026-11-03",
        days: 2,
      },
      HOSTILE,
    );
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    expect(lines[1]).toContain(", 1 day missing");
  });

  it("`history` prints a hostile slot key, destination and error without their control characters", () => {
    const at = new Date("2026-11-16T08:00:00Z");
    const lines = formatHistory(
      [
        {
          key: HOSTILE,
          team: "checkout",
          kind: "digest",
          job: "daily",
          fireAt: at,
          period: { start: "2026-11-15", end: "2026-11-15" },
          createdAt: at,
          finishedAt: null,
          deliveries: [
            {
              destination: `webhook:${HOSTILE}`,
              state: "failed",
              attempts: 2,
              lastError: `the server answered ${HOSTILE}`,
              nextAttemptAt: null,
              ref: null,
              updatedAt: at,
              claimedBy: null,
              claim: 0,
              claimedAt: null,
            },
          ],
        },
      ],
      { zone: "UTC", width: 100 },
    );
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
  });

  it("`preview` prints a hostile team title, project name and note without control or bidi characters", () => {
    const report = checkoutReport();
    report.team = { ...report.team, title: HOSTILE };
    report.projects = report.projects.map((p) => ({ ...p, name: HOSTILE }));
    for (const color of [false, true]) {
      const text = renderTerminalReport(report, { color, width: 100 });
      // Our own colours (SGR codes) are the only escapes, and only with colour on.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing ours is the point.
      const withoutOurs = text.replace(/\x1b\[(?:2|22|31|32|39|1)m/g, "");
      for (const line of withoutOurs.split("\n")) expect(line).not.toMatch(UNSAFE);
    }
  });
});
