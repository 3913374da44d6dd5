import { describe, expect, it } from "vitest";
import { configText, issueLines, parse } from "./config-builders.js";

// `incidents:` at the top level (issue 38 item 3): where an incident is posted and how many
// projects firing together make one, each mistake named with its fix.

describe("incidents config", () => {
  it("is off when left out", () => {
    const result = parse(configText());
    expect("config" in result && result.config.incidents).toBeNull();
  });

  it("resolves min_projects (default 3) and the Slack channel", () => {
    const result = parse(configText({ incidents: { slack: { channel: "#incidents" } } }));
    expect("config" in result && result.config.incidents).toEqual({
      minProjects: 3,
      slack: { channel: "#incidents" },
      email: null,
      msteams: null,
      webhook: null,
      pagerduty: null,
    });
  });

  it("refuses one project as an incident, saying what to write", () => {
    const result = parse(
      configText({ incidents: { min_projects: 1, slack: { channel: "#incidents" } } }),
    );
    expect(issueLines(result)).toEqual([
      "incidents.min_projects: must be at least 2 (one project alone is an alert, not an incident), e.g. 3",
    ]);
  });

  it("refuses incidents with nowhere to post them", () => {
    const result = parse(configText({ incidents: { min_projects: 4 } }));
    expect(issueLines(result)).toEqual([
      'incidents: names no destination — add incidents.slack.channel (e.g. "#incidents"), or incidents.email, msteams, webhook or pagerduty',
    ]);
  });
});
