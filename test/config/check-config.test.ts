import { describe, expect, it } from "vitest";
import { checkConfigCommand, describeFire } from "../../src/commands/check-config.js";
import { parseConfigText } from "../../src/config/load-config.js";
import { AuthError, SlackDeliveryError } from "../../src/errors.js";
import type { InsightsApi, ProjectSummary } from "../../src/insights/types.js";
import { configText, fullEnv } from "./config-builders.js";

// Friday 2026-10-23 12:00 UTC (08:00 in New York), two days before Europe/Berlin leaves
// summer time (Sun 25 Oct, 03:00 → 02:00).
const NOW = new Date("2026-10-23T12:00:00Z");

function config(edits: Record<string, unknown> = {}) {
  return parseConfigText(configText(edits), "reporter.yaml", { env: fullEnv() });
}

/** An InsightsApi that knows a fixed list of projects, or fails as told. */
function api(projects: ProjectSummary[] | Error): InsightsApi {
  return {
    listProjects: async () => {
      if (projects instanceof Error) throw projects;
      return projects;
    },
    getInsights: async () => {
      throw new Error("check-config never fetches insights");
    },
  };
}

// Wide enough that no line breaks: the tests of what is said read whole lines.
const UNBROKEN = 1_000;

async function run(opts: Omit<Parameters<typeof checkConfigCommand>[0], "now">) {
  const lines: string[] = [];
  const code = await checkConfigCommand({ width: UNBROKEN, ...opts, now: NOW }, (line) =>
    lines.push(line),
  );
  return { code, lines };
}

const ALL_PROJECTS: ProjectSummary[] = [
  { id: "pdqmxlz", name: "Web E2E" },
  { id: "qwhtzrn", name: "API" },
  { id: "mvbkqfe", name: "Payments E2E" },
];

describe("check-config", () => {
  it("prints each schedule's next three fires, one per line, in team time and UTC, across a DST change", async () => {
    const { code, lines } = await run({ config: config(), width: 80 });
    expect(code).toBe(0);
    expect(lines).toEqual([
      "reporter.yaml: valid — 2 teams, 2 digests, 1 alert",
      "  api https://acme.insights.test/api/external/v1 (key set)",
      "  slack token set, smtp_url set",
      "  ledger SQLite ./data/reporter.sqlite (one daemon)",
      "",
      'team checkout "checkout" — Europe/Berlin, weeks start Monday, 2 projects',
      "  digest checkout/daily  0 9 * * 1-5  next:",
      "    Mon 2026-10-26 09:00 CET (08:00 UTC)  covers Sun Oct 25",
      "    Tue 2026-10-27 09:00 CET (08:00 UTC)  covers Mon Oct 26",
      "    Wed 2026-10-28 09:00 CET (08:00 UTC)  covers Tue Oct 27",
      '    warning: checkout/daily (previous_day, "0 9 * * 1-5") never reports Fri,',
      "      Sat: no fire covers those days — use period: since_previous_run to report",
      "      every day since the previous fire",
      "  alert checkout/flaky-rate  0 9 * * *  next:",
      "    Sat 2026-10-24 09:00 CEST (07:00 UTC)",
      "    Sun 2026-10-25 09:00 CET (08:00 UTC)",
      "    Mon 2026-10-26 09:00 CET (08:00 UTC)",
      "",
      'team payments "payments" — America/New_York, weeks start Monday, 1 project',
      "  digest payments/daily  30 8 * * 1-5  next:",
      "    Fri 2026-10-23 08:30 EDT (12:30 UTC)  covers Thu Oct 22",
      "    Mon 2026-10-26 08:30 EDT (12:30 UTC)  covers Sun Oct 25",
      "    Tue 2026-10-27 08:30 EDT (12:30 UTC)  covers Mon Oct 26",
      '    warning: payments/daily (previous_day, "30 8 * * 1-5") never reports Fri,',
      "      Sat: no fire covers those days — use period: since_previous_run to report",
      "      every day since the previous fire",
    ]);
  });

  it("with since_previous_run, Monday's fire covers Friday to Sunday and no day is left unreported", async () => {
    const { lines } = await run({
      config: config({ "teams[0].digests[0].period": "since_previous_run" }),
    });
    expect(lines).toContain(
      "    Mon 2026-10-26 09:00 CET (08:00 UTC)  covers Fri Oct 23 \u2013 Sun Oct 25",
    );
    expect(lines.filter((l) => l.includes("checkout/daily") && l.includes("warning"))).toEqual([]);
  });

  it.each([
    // Tokyo's morning is the previous UTC day; the UTC side names its date.
    ["Asia/Tokyo", "2026-10-26T23:00:00Z", "Tue 2026-10-27 08:00 GMT+9 (Mon 2026-10-26 23:00 UTC)"],
    ["Europe/Berlin", "2026-10-24T07:00:00Z", "Sat 2026-10-24 09:00 CEST (07:00 UTC)"],
    [
      "America/Los_Angeles",
      "2026-11-02T02:00:00Z",
      "Sun 2026-11-01 18:00 PST (Mon 2026-11-02 02:00 UTC)",
    ],
  ])("describes a fire in %s", (zone, instant, expected) => {
    expect(describeFire(new Date(instant), zone)).toBe(expected);
  });

  it("says when a team has nothing scheduled", async () => {
    const { lines } = await run({ config: config({ "teams[1].digests": [] }) });
    expect(lines).toContain("  no digests or alerts — nothing will be sent");
  });

  it("online: confirms the key, every project and the Slack token", async () => {
    const slackAuthTest = async () => ({ team: "Acme", user: "insights" });
    const { code, lines } = await run({
      config: config(),
      online: { api: api(ALL_PROJECTS), slackAuthTest },
    });
    expect(code).toBe(0);
    expect(lines.slice(-4)).toEqual([
      "insights API: key accepted — 3 projects in this workspace",
      "team checkout: all 2 projects found",
      "team payments: all 1 project found",
      "Slack: token accepted — workspace Acme, bot user insights",
    ]);
  });

  it("online: names a project the workspace does not have, with the ids it does", async () => {
    const { code, lines } = await run({
      config: config({ "teams[1].projects[0].id": "zzzzzzz" }),
      online: { api: api(ALL_PROJECTS) },
    });
    expect(code).toBe(1);
    expect(lines).toContain(
      'team payments: project "zzzzzzz" not in this workspace — ids available: pdqmxlz (Web E2E), qwhtzrn (API), mvbkqfe (Payments E2E)',
    );
  });

  it("online: a refused key says what to check, and the run fails", async () => {
    const { code, lines } = await run({ config: config(), online: { api: api(new AuthError()) } });
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe(`insights API: ${new AuthError().message}`);
  });

  it("online: a refused Slack token fails the check without showing the token", async () => {
    const token = "xoxb-test-token";
    const slackAuthTest = async () => {
      throw new Error(`An API error occurred: invalid_auth (token ${token})`);
    };
    const { code, lines } = await run({
      config: config(),
      online: { api: api(ALL_PROJECTS), slackAuthTest },
    });
    expect(code).toBe(1);
    const last = lines.at(-1) ?? "";
    expect(last).toMatch(
      /^Slack: the token check \(auth\.test\) failed: An API error occurred: invalid_auth/,
    );
    expect(last).toContain("check SLACK_BOT_TOKEN");
    expect(lines.join("\n")).not.toContain(token);
  });

  it("online: a Slack error of ours is shown as it is, its fix named once", async () => {
    const slackAuthTest = async () => {
      throw new SlackDeliveryError(
        "could not reach Slack for auth.test (connect ECONNREFUSED) — check the network, and SLACK_API_URL if it is set",
        null,
      );
    };
    const { lines } = await run({
      config: config(),
      online: { api: api(ALL_PROJECTS), slackAuthTest },
    });
    expect(lines.at(-1)).toBe(
      "Slack: the token check (auth.test) failed: could not reach Slack for auth.test (connect ECONNREFUSED) — check the network, and SLACK_API_URL if it is set",
    );
  });

  it("says when the Slack token is not a bot token", async () => {
    const text = configText();
    const withUserToken = parseConfigText(text, "reporter.yaml", {
      env: fullEnv({ SLACK_BOT_TOKEN: "xoxp-user-token" }),
    });
    const { lines } = await run({ config: withUserToken });
    expect(lines).toContain(
      "  slack token set, but it is not a bot token (xoxb-…): use the app's Bot User OAuth Token, smtp_url set",
    );
    expect(lines.join("\n")).not.toContain("xoxp-user-token");
  });
});
