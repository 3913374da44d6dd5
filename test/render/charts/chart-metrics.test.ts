import { describe, expect, it } from "vitest";
import { ALERT_METRIC_TABLE, ALERT_METRICS } from "../../../src/alerts/alert-metrics.js";
import { chartMetricOf } from "../../../src/render/charts/chart-thresholds.js";

describe("which alert metrics a chart draws", () => {
  it("is what the metric table says the config may ask a chart for", () => {
    for (const metric of ALERT_METRICS) {
      expect([metric, chartMetricOf(metric) !== null]).toEqual([
        metric,
        ALERT_METRIC_TABLE[metric].charted,
      ]);
    }
  });
});
