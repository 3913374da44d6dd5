import { describe, expect, it } from "vitest";
import { createRequestCache } from "../../src/insights/collect-insights.js";
import { fireImagesOf } from "../../src/pipeline/alert/deliver-stage.js";

// The fire's charts as the deliver stage hands them to the destinations: drawn on the first
// ask of a send and shared by every destination that asks after it; a drawing that fails is
// no charts and one warning, and the news goes out all the same.

const WINDOW = { start: "2026-11-18", end: "2026-11-18" };
const FIRED = [{ scope: "p1", name: "Web" }];

function setup(chart: boolean) {
  const warnings: string[] = [];
  const job = {
    team: {
      projects: [{ id: "p1", name: "Web", branch: null, author: null, tags: [] }],
      timezone: "UTC",
    },
    alert: { name: "flaky", chart },
    fireAt: new Date("2026-11-19T09:00:00Z"),
  };
  const deps = {
    api: {
      getInsights: async () => {
        throw new Error("the API is down");
      },
    },
    cache: createRequestCache(),
    chartPainter: {},
    logger: { warn: (_fields: unknown, message: string) => warnings.push(message) },
  };
  return { images: fireImagesOf(job as never, WINDOW, FIRED, deps as never), warnings };
}

describe("a fire's images", () => {
  it("are drawn once for every destination that asks; a failure is none, with one warning", async () => {
    const { images, warnings } = setup(true);
    const asked = await Promise.all([images?.fireCharts(), images?.fireCharts()]);
    expect(asked).toEqual([[], []]);
    expect(await images?.fireCharts()).toEqual([]);
    expect(warnings).toEqual(["the fire's chart was left out"]);
  });

  it("are not offered by an alert without `chart: true`", () => {
    expect(setup(false).images).toBeNull();
  });
});
