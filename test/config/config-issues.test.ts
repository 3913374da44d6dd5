import { describe, expect, it } from "vitest";
import { configText, fullEnv, issuesOf, parse } from "./config-builders.js";

type Case = [
  name: string,
  edits: Record<string, unknown>,
  expected: [path: string, says: string][],
];

const D = "teams[0].digests[0]";
const A = "teams[0].alerts[0]";

const cases: Case[] = [
  [
    "a cron with four fields",
    { "teams[1].digests[0].schedule": "0 9 * *" },
    [
      [
        "teams[1].digests[0].schedule",
        '"0 9 * *" is not a cron expression (5 fields: minute hour day-of-month month day-of-week)',
      ],
    ],
  ],
  [
    "a cron minute out of range",
    { [`${D}.schedule`]: "61 9 * * *" },
    [[`${D}.schedule`, "minute"]],
  ],
  ["a cron with seconds", { [`${A}.schedule`]: "0 0 9 * * *" }, [[`${A}.schedule`, "5 fields"]]],
  [
    "a misspelt zone",
    { "teams[0].timezone": "Europe/Berln" },
    [
      [
        "teams[0].timezone",
        '"Europe/Berln" is not an IANA time zone — did you mean "Europe/Berlin"?',
      ],
    ],
  ],
  [
    "a zone in the wrong case",
    { "teams[0].timezone": "europe/berlin" },
    [["teams[0].timezone", 'did you mean "Europe/Berlin"?']],
  ],
  [
    "a zone that does not exist",
    { "teams[1].timezone": "Mars/Olympus_Mons" },
    [["teams[1].timezone", 'use an IANA name such as "Europe/Berlin"']],
  ],
  [
    "two teams with one name",
    { "teams[1].name": "checkout" },
    [["teams[1].name", 'team name "checkout" is already used by teams[0]']],
  ],
  [
    "two digests with one name",
    { "teams[0].digests[1]": { name: "daily", schedule: "0 8 * * 1", slack: { channel: "C1" } } },
    [["teams[0].digests[1].name", 'digest name "daily" is already used by teams[0].digests[0]']],
  ],
  [
    "two alerts with one name",
    {
      "teams[0].alerts[1]": {
        name: "flaky-rate",
        schedule: "0 8 * * *",
        warn_at: 3,
        critical_at: 5,
        clear_at: 2,
        email: { to: ["a@example.com"] },
      },
    },
    [["teams[0].alerts[1].name", 'alert name "flaky-rate" is already used by teams[0].alerts[0]']],
  ],
  [
    "a fire's chart on a metric no chart draws",
    {
      [`${A}.metric`]: "runs",
      [`${A}.warn_at`]: 150,
      [`${A}.critical_at`]: 100,
      [`${A}.clear_at`]: 200,
      [`${A}.chart`]: true,
    },
    [
      [
        `${A}.chart`,
        "charts are drawn for flaky_rate, run_pass_rate, mean_run_duration, skipped_share and timed_out_share only, not runs — remove chart, or alert on one of those",
      ],
    ],
  ],
  [
    "an owner that is neither a Slack id nor an email address",
    { "teams[0].projects[0].owners": ["U0123ABCD", "@alice"] },
    [
      [
        "teams[0].projects[0].owners[1]",
        'a Slack user id ("U0123ABCD"), a Slack group id ("S0123ABCD") or an email address',
      ],
    ],
  ],
  [
    "an alert actor given by name instead of its Slack id",
    { "teams[0].alert_actors": ["S0123QALEADS", "@qa-leads"] },
    [
      [
        "teams[0].alert_actors[1]",
        'a Slack user id ("U0123ABCD": a profile\'s ⋯ → Copy member ID) or user group id ("S0123ABCD"',
      ],
    ],
  ],
  [
    "an empty alert_actors, which would let no one act",
    { "teams[0].alert_actors": [] },
    [["teams[0].alert_actors", "leave alert_actors out to let anyone in the channel act"]],
  ],
  [
    "one project listed twice in a team",
    { "teams[0].projects[1].id": "pdqmxlz" },
    [["teams[0].projects[1].id", 'project "pdqmxlz" is already used by teams[0].projects[0]']],
  ],
  [
    "a digest with no destination",
    { [`${D}.slack`]: undefined, [`${D}.email`]: undefined },
    [[D, "this digest has no destination — add slack: { channel: C0123ABCD } or email:"]],
  ],
  [
    "an alert with no destination",
    { [`${A}.slack`]: undefined },
    [[A, "this alert has no destination"]],
  ],
  [
    "clear_at not below warn_at",
    { [`${A}.clear_at`]: 3 },
    [[`${A}.clear_at`, "3 must be below warn_at (3)"]],
  ],
  [
    "warn_at above critical_at",
    { [`${A}.warn_at`]: 6, [`${A}.clear_at`]: 1 },
    [
      [
        `${A}.warn_at`,
        "6 must not be above critical_at (5) — flaky_rate is bad when high, so thresholds must satisfy clear_at < warn_at ≤ critical_at",
      ],
    ],
  ],
  [
    "a bad-when-low metric with high-bad thresholds",
    {
      [`${A}.metric`]: "run_pass_rate",
      [`${A}.warn_at`]: 90,
      [`${A}.critical_at`]: 95,
      [`${A}.clear_at`]: 85,
    },
    [
      [`${A}.clear_at`, "85 must be above warn_at (90)"],
      [
        `${A}.warn_at`,
        "90 must not be below critical_at (95) — run_pass_rate is bad when low, so thresholds must satisfy clear_at > warn_at ≥ critical_at",
      ],
    ],
  ],
  [
    "a rate threshold above 100",
    { [`${A}.critical_at`]: 150 },
    [[`${A}.critical_at`, "150 is not a percent"]],
  ],
  [
    "a confidence that is not a probability",
    { [`${A}.confidence`]: 95 },
    [[`${A}.confidence`, ""]],
  ],
  [
    "a placeholder API subdomain",
    { "api.url": "https://your-workspace.insights.test/api/external/v1" },
    [["api.url", "put your workspace's own subdomain"]],
  ],
  [
    "a base URL without the API path",
    { "api.url": "https://acme.insights.test/" },
    [["api.url", "must end with /api/external/v1"]],
  ],
  [
    "plain http to a remote API",
    { "api.url": "http://acme.insights.test/api/external/v1" },
    [["api.url", "must use https://"]],
  ],
  [
    "an SMTP URL with another scheme",
    { "email.smtp_url": "https://mail.example.com" },
    [["email.smtp_url", "must be an smtp:// or smtps:// URL"]],
  ],
  [
    "dashboard links without {project_id}",
    { dashboard_url: "https://insights.test/p", "teams[1].dashboard_url": "https://x.test/" },
    [
      ["dashboard_url", "must contain {project_id}"],
      ["teams[1].dashboard_url", "must contain {project_id}"],
    ],
  ],
  [
    "same_period_last_week on a month",
    { [`${D}.period`]: "previous_month", [`${D}.compare_to`]: "same_period_last_week" },
    [[`${D}.compare_to`, "needs a period of at most 7 days, but previous_month is longer"]],
  ],
  [
    "median_of_4_weeks on a quarter",
    { [`${D}.period`]: "previous_quarter", [`${D}.compare_to`]: "median_of_4_weeks" },
    [
      [
        `${D}.compare_to`,
        "median_of_4_weeks needs a period of at most 7 days, but previous_quarter is longer",
      ],
    ],
  ],
  [
    "a period kind that does not exist",
    { [`${D}.period`]: "previous_dya" },
    [
      [
        `${D}.period`,
        '"previous_dya" is not allowed — use one of: previous_day, since_previous_run, previous_week, previous_month, previous_quarter, last_7_days, last_28_days (did you mean "previous_day"?)',
      ],
    ],
  ],
  [
    "a duration without a unit letter",
    { [`${D}.catch_up`]: "6 hours" },
    [
      [
        `${D}.catch_up`,
        '"6 hours" is not allowed — must be a duration such as "30m", "6h" or "1d"',
      ],
    ],
  ],
  [
    "a team name in capitals",
    { "teams[0].name": "Checkout" },
    [["teams[0].name", '"Checkout" is not allowed — must be lowercase letters, digits and -']],
  ],
  [
    "a missing zone",
    { "teams[0].timezone": undefined },
    [["teams[0].timezone", "missing — add it (IANA zone"]],
  ],
  [
    "a project id YAML reads as a number",
    { "teams[1].projects[0].id": 12345 },
    [["teams[1].projects[0].id", 'must be text, not number 12345 — put it in quotes: "12345"']],
  ],
  [
    "a team with no projects",
    { "teams[1].projects": [] },
    [["teams[1].projects", "must list at least 1 item"]],
  ],
  ["zero concurrency", { "api.concurrency": 0 }, [["api.concurrency", "must be at least 1"]]],
  [
    "a response cap too small for any insights body",
    { "api.max_response_bytes": 1000 },
    [["api.max_response_bytes", "must be at least 100000"]],
  ],
  [
    "a misspelt key",
    { [`${D}.shedule`]: "0 9 * * *" },
    [[`${D}.shedule`, 'unknown key — did you mean "schedule"?']],
  ],
  [
    "a misspelt top-level key",
    { dashbord_url: null },
    [["dashbord_url", 'did you mean "dashboard_url"?']],
  ],
  [
    "a key with no near match",
    { [`${D}.colour`]: "red" },
    [
      [
        `${D}.colour`,
        "unknown key — allowed here: name, schedule, period, compare_to, catch_up, min_change_pp, charts, slack, email",
      ],
    ],
  ],
];

describe("config problems", () => {
  it.each(cases)("reports %s with its path and the fix", (_name, edits, expected) => {
    const issues = issuesOf(parse(configText(edits)));
    expect(issues.map((i) => i.path)).toEqual(expected.map(([path]) => path));
    for (const [index, [, says]] of expected.entries()) {
      expect(issues[index]?.message).toContain(says);
    }
  });

  it("accepts a fire's chart on a mean_run_duration alert (drawn in minutes)", () => {
    const result = parse(
      configText({
        [`${A}.metric`]: "mean_run_duration",
        [`${A}.warn_at`]: 15,
        [`${A}.critical_at`]: 20,
        [`${A}.clear_at`]: 12,
        [`${A}.chart`]: true,
      }),
    );
    expect("issues" in result ? result.issues : []).toEqual([]);
  });

  it("accepts a runs alert counting past 100, bad when low", () => {
    const result = parse(
      configText({
        [`${A}.metric`]: "runs",
        [`${A}.warn_at`]: 150,
        [`${A}.critical_at`]: 100,
        [`${A}.clear_at`]: 200,
      }),
    );
    expect("issues" in result ? result.issues : []).toEqual([]);
  });

  it("lists every problem at once, schema and cross-field alike", () => {
    const issues = issuesOf(
      parse(
        configText({
          "api.key": "${MISSING_KEY}",
          [`${D}.shedule`]: "x",
          "teams[1].digests[0].schedule": "0 9 * *",
          "teams[1].timezone": "Europe/Berln",
          [`${A}.clear_at`]: 4,
          "teams[1].name": "checkout",
        }),
      ),
    );
    expect(issues.map((i) => i.path).sort()).toEqual(
      [
        "api.key",
        `${D}.shedule`,
        "teams[1].digests[0].schedule",
        "teams[1].timezone",
        `${A}.clear_at`,
        "teams[1].name",
      ].sort(),
    );
  });

  it("needs a Slack token only when something posts to Slack, and names who needs it", () => {
    const env = fullEnv({ SLACK_BOT_TOKEN: undefined });
    const issues = issuesOf(parse(configText(), { env }));
    expect(issues).toEqual([
      {
        path: "slack.token",
        message:
          "${SLACK_BOT_TOKEN} is not set — export SLACK_BOT_TOKEN (or SLACK_BOT_TOKEN_FILE); needed by teams[0].digests[0].slack, teams[0].alerts[0].slack",
      },
    ]);
    const emailOnly = configText({
      [`${D}.slack`]: undefined,
      [`${A}.slack`]: undefined,
      [`${A}.email`]: { to: ["o@example.com"] },
    });
    expect(parse(emailOnly, { env })).toHaveProperty("config");
  });

  it("refuses credentials written as empty strings, rather than sending them", () => {
    const text = configText({ "api.key": "", "slack.token": "", "email.smtp_url": "" });
    const issues = issuesOf(parse(text, { env: fullEnv() }));
    expect(issues).toEqual([
      { path: "api.key", message: "must not be empty" },
      {
        path: "email.smtp_url",
        message: expect.stringMatching(/^must be an smtp:\/\/ or smtps:\/\/ URL with a host/),
      },
      { path: "slack.token", message: "must not be empty" },
    ]);
  });

  it("needs an SMTP URL only when something emails", () => {
    const env = fullEnv({ SMTP_URL: undefined });
    const issues = issuesOf(parse(configText(), { env }));
    expect(issues.map((i) => [i.path, i.message.split(";")[0]])).toEqual([
      ["email.smtp_url", "${SMTP_URL} is not set — export SMTP_URL (or SMTP_URL_FILE)"],
    ]);
    expect(issues[0]?.message).toContain(
      "needed by teams[0].digests[0].email, teams[1].digests[0].email",
    );
  });

  it("names the variable the config points at when that one is unset", () => {
    const text = configText({ "slack.token": "${TEAM_SLACK_TOKEN}" });
    const issues = issuesOf(parse(text, { env: fullEnv() }));
    expect(issues.map((i) => i.path)).toEqual(["slack.token"]);
    expect(issues[0]?.message).toMatch(
      /^\$\{TEAM_SLACK_TOKEN\} is not set — export TEAM_SLACK_TOKEN/,
    );
  });

  it("does not ask for credentials when delivery goes to an outbox", () => {
    const env = fullEnv({ SLACK_BOT_TOKEN: undefined, SMTP_URL: undefined });
    const result = parse(configText(), { env, requireCredentials: false });
    if (!("config" in result)) throw new Error(JSON.stringify(result.issues));
    expect(result.config.slack.token).toBeNull();
    expect(result.config.email.smtpUrl).toBeNull();
  });

  it("refuses an empty file and a file that is not a mapping", () => {
    expect(issuesOf(parse(""))[0]?.message).toContain("the file is empty");
    expect(issuesOf(parse("- a\n- b\n"))).toEqual([
      {
        path: "",
        message:
          "the file is a list, not a YAML mapping of settings (key: value lines) — check that --config (or REPORTER_CONFIG) names the config file, not a secret or a data file",
      },
    ]);
  });
});
