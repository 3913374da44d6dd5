import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  loadConfig,
  loadConfigWithoutApi,
  resolveConfigPath,
  tryLoadConfig,
} from "../../src/config/load-config.js";
import { ConfigError } from "../../src/errors.js";
import { Secret } from "../../src/secret.js";
import { configText, fullEnv } from "./config-builders.js";

const dir = mkdtempSync(join(tmpdir(), "reporter-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("resolveConfigPath", () => {
  it.each([
    ["the flag first", "a.yaml", { REPORTER_CONFIG: "b.yaml" }, "a.yaml"],
    ["then REPORTER_CONFIG", undefined, { REPORTER_CONFIG: "b.yaml" }, "b.yaml"],
    ["then the default", undefined, {}, "config/reporter.yaml"],
  ])("takes %s", (_name, flag, env, expected) => {
    expect(resolveConfigPath(flag, env)).toBe(expected);
  });
});

describe("loadConfig", () => {
  it("reads a file and resolves it with every default filled", () => {
    const path = writeConfig(
      "full.yaml",
      configText({
        "api.url": "https://acme.insights.test/api/external/v1/",
        "api.timeout": "45s",
        dashboard_url: "https://dash.test/{project_id}",
        "teams[0].title": "Checkout squad",
        "teams[0].week_starts_on": "sunday",
        "teams[1].dashboard_url": "https://other.test/p/{project_id}",
        "teams[0].digests[0].catch_up": "90m",
      }),
    );
    const config = loadConfig(path, { env: fullEnv() });
    expect(config.source).toBe(path);
    expect(config.api).toMatchObject({
      url: "https://acme.insights.test/api/external/v1",
      concurrency: 4,
      timeoutMs: 45_000,
      maxAttempts: 6,
      maxResponseBytes: 8_000_000,
      maxRequestsPerMinute: null,
    });
    expect(config.api.key).toBeInstanceOf(Secret);
    expect(config.state).toEqual({
      path: "./data/reporter.sqlite",
      url: null,
      sendTimeoutMs: 300_000,
      maxSlotsInFlight: 50,
    });
    expect(config.server).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(config.email).toMatchObject({
      from: "Test insights <insights@localhost>",
      maxBytes: 10_000_000,
    });

    const [checkout, payments] = config.teams;
    expect(checkout).toMatchObject({
      name: "checkout",
      title: "Checkout squad",
      weekStartsOn: 7,
      dashboardUrl: "https://dash.test/{project_id}",
    });
    expect(payments).toMatchObject({
      title: "payments",
      weekStartsOn: 1,
      dashboardUrl: "https://other.test/p/{project_id}",
    });
    expect(checkout?.projects).toEqual([
      {
        id: "pdqmxlz",
        name: null,
        branch: null,
        author: null,
        tags: [],
        owners: [],
        attribution: null,
      },
      {
        id: "qwhtzrn",
        name: "API",
        branch: null,
        author: null,
        tags: [],
        owners: [],
        attribution: null,
      },
    ]);
    expect(checkout?.digests[0]).toEqual({
      name: "daily",
      schedule: "0 9 * * 1-5",
      period: "previous_day",
      compareTo: "previous_period",
      catchUpMs: 90 * 60_000,
      minChangePp: 0.5,
      charts: null,
      slack: { channel: "C0123ABCD", attachXlsx: false },
      email: { to: ["qa@example.com"], attachXlsx: true },
      msteams: null,
      webhook: null,
      pagerduty: null,
    });
    expect(checkout?.alerts[0]).toEqual({
      name: "flaky-rate",
      metric: "flaky_rate",
      window: "previous_day",
      schedule: "0 9 * * *",
      warnAt: 3,
      criticalAt: 5,
      clearAt: 2.5,
      against: null,
      minTests: 200,
      confidence: 0.95,
      forEvaluations: 1,
      repeatEveryMs: null,
      scope: "both",
      onNoData: "keep",
      catchUpMs: 6 * 3_600_000,
      chart: false,
      slack: { channel: "C0ALERTS", mention: null },
      email: null,
      msteams: null,
      webhook: null,
      pagerduty: null,
    });
  });

  it("throws a ConfigError (exit status 2) listing the problems under the file's name", () => {
    const path = writeConfig("bad.yaml", configText({ "teams[1].digests[0].schedule": "0 9 * *" }));
    let caught: unknown;
    try {
      loadConfig(path, { env: fullEnv() });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      `${path}: teams[1] (payments).digests[0] (daily).schedule: "0 9 * *" is not a cron expression (5 fields: minute hour day-of-month month day-of-week)`,
    );
  });

  it("says how to provide a config that does not exist", () => {
    const path = join(dir, "missing.yaml");
    const result = tryLoadConfig(path, { env: {} });
    expect(result).toEqual({
      issues: [
        {
          path: "",
          message: `no config file at ${path} — create it (start from config/reporter.example.yaml), or pass --config FILE or set REPORTER_CONFIG`,
        },
      ],
    });
  });

  it("reads through the injected readFile", () => {
    const seen: string[] = [];
    const readFile = (p: string) => {
      seen.push(p);
      return configText();
    };
    const config = loadConfig("virtual.yaml", { env: fullEnv(), readFile });
    expect(seen).toEqual(["virtual.yaml"]);
    expect(config.teams.map((t) => t.name)).toEqual(["checkout", "payments"]);
  });
});

describe("loadConfigWithoutApi, for commands that never call the insights API", () => {
  it("needs no API variables and does not check the api section at all", () => {
    const path = writeConfig("no-api.yaml", configText({ "api.url": "${INSIGHTS_API_URL}" }));
    const config = loadConfigWithoutApi(path, { env: {}, requireCredentials: false });
    expect("api" in config).toBe(false);
    expect(config.teams.map((t) => t.name)).toEqual(["checkout", "payments"]);
  });

  it("still checks everything else, with paths", () => {
    const path = writeConfig("no-api-bad.yaml", configText({ "teams[0].timezone": "Mars/Base" }));
    expect(() => loadConfigWithoutApi(path, { env: {}, requireCredentials: false })).toThrow(
      /teams\[0\] \(checkout\)\.timezone/,
    );
  });
});

describe("state: SQLite or PostgreSQL", () => {
  it("takes state.url from DATABASE_URL_FILE as a secret", () => {
    const secretFile = writeConfig("database-url", "postgres://reporter:pw@db:5432/insights\n");
    const path = writeConfig(
      "postgres.yaml",
      configText({ "state.url": "${DATABASE_URL}", "state.path": undefined }),
    );
    const config = loadConfig(path, { env: { ...fullEnv(), DATABASE_URL_FILE: secretFile } });
    expect(config.state.url).toBeInstanceOf(Secret);
    expect(config.state.url?.reveal()).toBe("postgres://reporter:pw@db:5432/insights");
    expect(JSON.stringify(config.state)).not.toContain("pw");
  });

  it.each([
    [
      "both stores",
      { "state.url": "postgres://db/insights", "state.path": "./x.sqlite" },
      "give state.path (SQLite, one daemon) or state.url (PostgreSQL, replicas), not both",
    ],
    [
      "a URL that is not PostgreSQL's",
      { "state.url": "mysql://u:secretpw@db/insights" },
      "state.url: must be a postgres:// URL with a host",
    ],
    [
      "a send timeout of nothing (every send in flight could be taken over)",
      { "state.send_timeout": "0s" },
      'state.send_timeout: must be at least 1s, e.g. "30s"',
    ],
    ["an API timeout of nothing", { "api.timeout": "00m" }, "api.timeout: must be at least 1s"],
  ])("refuses %s, naming the fix", (_name, fields, message) => {
    const path = writeConfig("bad-state.yaml", configText(fields));
    const error = (() => {
      try {
        loadConfig(path, { env: fullEnv() });
      } catch (e) {
        return e as Error;
      }
      throw new Error("the config was accepted");
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(message);
    expect(error.message).not.toContain("secretpw");
  });
});
