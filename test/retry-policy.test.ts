import { describe, expect, it } from "vitest";
import {
  backoffDelay,
  isRetryableErrorCode,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
} from "../src/retry-policy.js";

const NOW = Date.parse("2026-11-02T10:00:00Z");

describe("isRetryableStatus", () => {
  it.each([429, 500, 502, 503, 504])("retries %i", (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });
  it.each([200, 301, 400, 401, 403, 404, 422, 501])("never retries %i", (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
});

describe("isRetryableErrorCode", () => {
  it("retries resets and timeouts but not a refused connection or unknown host", () => {
    expect(isRetryableErrorCode("TIMEOUT")).toBe(true);
    expect(isRetryableErrorCode("ECONNRESET")).toBe(true);
    expect(isRetryableErrorCode("UND_ERR_SOCKET")).toBe(true);
    expect(isRetryableErrorCode("UND_ERR_HEADERS_TIMEOUT")).toBe(true);
    expect(isRetryableErrorCode("UND_ERR_BODY_TIMEOUT")).toBe(true);
    expect(isRetryableErrorCode("ECONNREFUSED")).toBe(false);
    expect(isRetryableErrorCode("ENOTFOUND")).toBe(false);
  });
});

describe("backoffDelay", () => {
  const options = { baseMs: 500, capMs: 30_000 };
  it.each([
    // attempt, random draw, wait
    [1, 0.999999, 499],
    [2, 0.999999, 999],
    [3, 0.5, 1000],
    [5, 0.5, 4000],
    [7, 0.999999, 29_999],
    [20, 0.5, 15_000],
    [1, 0, 0],
  ])("after attempt %i with draw %f waits %i ms", (attempt, draw, wait) => {
    expect(backoffDelay(attempt, draw, options)).toBe(wait);
  });

  it("never exceeds the cap, whatever the attempt", () => {
    for (let attempt = 1; attempt < 60; attempt++) {
      expect(backoffDelay(attempt, 0.999999, options)).toBeLessThan(30_000);
    }
  });
});

describe("parseRetryAfter", () => {
  it.each([
    ["0", 0],
    ["7", 7000],
    [" 120 ", 120_000],
    ["Mon, 02 Nov 2026 10:00:45 GMT", 45_000],
    ["Mon, 02 Nov 2026 11:00:00 GMT", 3_600_000],
    ["Mon, 02 Nov 2026 09:59:00 GMT", 0],
  ])("reads %j as %i ms from now", (header, ms) => {
    expect(parseRetryAfter(header, NOW)).toBe(ms);
  });

  it.each([undefined, "", "soon", "-5", "1.5", "12abc"])("ignores %j", (header) => {
    expect(parseRetryAfter(header, NOW)).toBeNull();
  });
});

describe("retryDelay", () => {
  it("honours Retry-After even beyond the backoff cap", () => {
    expect(retryDelay(1, 90_000, 0.1, { baseMs: 500, capMs: 30_000 })).toBe(90_000);
  });
  it("falls back to jittered backoff without Retry-After", () => {
    expect(retryDelay(3, null, 0.25, { baseMs: 500, capMs: 30_000 })).toBe(500);
  });
});
