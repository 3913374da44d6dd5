import { describe, expect, it } from "vitest";
import { configText, issueLines, parse } from "./config-builders.js";

// Issue 37 item 1: a team, and overriding it a project, may declare the slices a change is split by.

const ATTRIBUTION = {
  branches: ["main", "release-2.3"],
  authors: ["ci-bot", "Oliver Smith"],
  tags: [["smoke"], ["checkout", "e2e"]],
};

function configOf(result: ReturnType<typeof parse>) {
  if (!("config" in result)) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

describe("attribution", () => {
  it("gives every project of a team the team's slices, names as the API takes them", () => {
    const config = configOf(parse(configText({ "teams[0].attribution": ATTRIBUTION })));
    const [first, second] = config.teams[0]?.projects ?? [];
    expect(first?.attribution).toEqual(ATTRIBUTION);
    expect(second?.attribution).toEqual(ATTRIBUTION);
    expect(config.teams[1]?.projects[0]?.attribution).toBeNull();
  });

  it("lets a project's own attribution override the team's", () => {
    const own = { branches: ["develop"] };
    const config = configOf(
      parse(
        configText({
          "teams[0].attribution": ATTRIBUTION,
          "teams[0].projects[1].attribution": own,
        }),
      ),
    );
    expect(config.teams[0]?.projects[1]?.attribution).toEqual({
      branches: ["develop"],
      authors: [],
      tags: [],
    });
  });

  it("refuses an empty list, and more than 10 slices in a dimension, naming the limit", () => {
    const lines = issueLines(
      parse(
        configText({
          "teams[0].attribution": {
            branches: [],
            authors: Array.from({ length: 11 }, (_, i) => `dev-${i}`),
            tags: [[]],
          },
        }),
      ),
    );
    expect(lines.join("\n")).toMatch(/attribution\.branches: .*empty/);
    expect(lines.join("\n")).toMatch(/attribution\.authors: .*at most 10/);
    expect(lines.join("\n")).toMatch(/attribution\.tags\[0\]: /);
  });

  it("refuses an attribution that declares no dimension at all", () => {
    const lines = issueLines(parse(configText({ "teams[0].attribution": {} })));
    expect(lines.join("\n")).toMatch(/attribution/);
  });
});
