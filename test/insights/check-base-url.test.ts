import { describe, expect, it } from "vitest";
import { BaseUrlError } from "../../src/errors.js";
import { checkBaseUrl } from "../../src/insights/check-base-url.js";

function refusal(url: string): BaseUrlError {
  try {
    checkBaseUrl(url);
  } catch (error) {
    if (error instanceof BaseUrlError) return error;
    throw error;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe("checkBaseUrl", () => {
  it.each([
    [
      "https://acme.testinsights.io/api/external/v1",
      "https://acme.testinsights.io/api/external/v1",
    ],
    [
      "https://acme.testinsights.io/api/external/v1/",
      "https://acme.testinsights.io/api/external/v1",
    ],
    [
      "  https://acme.testinsights.io/api/external/v1  ",
      "https://acme.testinsights.io/api/external/v1",
    ],
    [
      "https://ACME.TestInsights.io:8443/api/external/v1",
      "https://acme.testinsights.io:8443/api/external/v1",
    ],
    ["http://127.0.0.1:4010/api/external/v1", "http://127.0.0.1:4010/api/external/v1"],
    ["http://127.8.9.10/api/external/v1/", "http://127.8.9.10/api/external/v1"],
    ["http://localhost:4010/api/external/v1", "http://localhost:4010/api/external/v1"],
    ["http://[::1]:4010/api/external/v1", "http://[::1]:4010/api/external/v1"],
    [
      "https://acme.proxy.corp/insights/api/external/v1",
      "https://acme.proxy.corp/insights/api/external/v1",
    ],
  ])("accepts %s as %s", (url, normalised) => {
    expect(checkBaseUrl(url)).toBe(normalised);
  });

  it.each([
    ["https://acme.testinsights.io", /must end with \/api\/external\/v1/],
    ["https://acme.testinsights.io/api/external/v2", /must end with \/api\/external\/v1/],
    ["https://acme.testinsights.io/api/external/v1/projects", /must end with \/api\/external\/v1/],
    ["http://acme.testinsights.io/api/external/v1", /must use https:\/\//],
    ["http://10.0.0.5/api/external/v1", /must use https:\/\//],
    ["ftp://acme.testinsights.io/api/external/v1", /must use https:\/\//],
    ["acme.testinsights.io/api/external/v1", /not a URL/],
    ["", /not a URL/],
    ["https://acme.testinsights.io/api/external/v1?x=1", /query or fragment/],
  ])("refuses %j, saying what to fix", (url, message) => {
    expect(refusal(url).message).toMatch(message);
  });

  it.each([
    "https://{workspace}.testinsights.io/api/external/v1",
    "https://<workspace>.testinsights.io/api/external/v1",
    "https://%7Bworkspace%7D.testinsights.io/api/external/v1",
    "https://%3Cworkspace%3E.testinsights.io/api/external/v1",
    "https://your-workspace.testinsights.io/api/external/v1",
    "https://your_team.testinsights.io/api/external/v1",
    "https://subdomain.testinsights.io/api/external/v1",
    "https://workspace.testinsights.io/api/external/v1",
    "https://Example.testinsights.io/api/external/v1",
  ])("refuses the placeholder subdomain in %s", (url) => {
    const error = refusal(url);
    expect(error.message).toContain("put your workspace's own subdomain in INSIGHTS_API_URL");
    expect(error.exitCode).toBe(2);
  });

  it("refuses credentials in the URL without repeating them", () => {
    const error = refusal("https://me:hunter2@acme.testinsights.io/api/external/v1");
    expect(error.message).toMatch(/must not carry credentials/);
    expect(JSON.stringify({ m: error.message, c: error.context })).not.toContain("hunter2");
  });

  it("does not repeat credentials of an unparsable URL either", () => {
    const error = refusal("https://me:hunter2@<workspace>.testinsights.io/api/external/v1");
    expect(JSON.stringify({ m: error.message, c: error.context })).not.toContain("hunter2");
  });
});
