import { describe, expect, it } from "vitest";
import { formatMetric } from "../../src/render/alert/alert-view.js";
import {
  fixed,
  formatAmountChange,
  formatPp,
  formatRate,
  signedFixed,
} from "../../src/render/format.js";

// A value that rounds to zero prints as zero, never "-0.0": a float a hair under zero (a rate
// difference, an interval's low end) is not a fall.

describe("-0.0 is never shown", () => {
  it("in a fixed number, a rate, a metric, a change", () => {
    expect(fixed(-0.00001, 1)).toBe("0.0");
    expect(fixed(-0.04, 1)).toBe("0.0");
    expect(fixed(-0.06, 1)).toBe("-0.1");
    expect(fixed(-0, 0)).toBe("0");
    expect(formatRate(-0.0000001)).toBe("0.0%");
    expect(formatMetric("flaky_rate", -0.00001)).toBe("0.0%");
    expect(signedFixed(-0.04, 1)).toBe("\u00b10.0");
    expect(signedFixed(-0.06, 1)).toBe("\u22120.1");
    expect(formatPp(-0.0001)).toBe("\u00b10.0 pp");
    expect(formatAmountChange(-1, -0.001)).toBe("\u00b10%");
  });
});
