import { afterEach, describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { parseFaultSpec } from "../../src/insights/emulator/fault-plan.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { getFromEmulator } from "./fetch-emulator.js";

const NOW = new Date("2026-11-16T12:00:00Z");
const started: RunningEmulator[] = [];
async function emulatorWith(options: Parameters<typeof startEmulator>[0] = {}) {
  const emulator = await startEmulator({ today: "2026-11-16", now: () => NOW, ...options });
  started.push(emulator);
  return emulator;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});
const insightsPath = (e: RunningEmulator) => `/projects/${e.projects[0]?.id}/insights`;

/** A signal that aborts once the emulator has logged `count` requests: a client giving up on a held answer. */
function abortOnceLogged(emulator: RunningEmulator, count = 1): AbortSignal {
  const controller = new AbortController();
  const poll = setInterval(() => {
    if (emulator.requestLog.length >= count) {
      clearInterval(poll);
      controller.abort();
    }
  }, 5);
  return controller.signal;
}

describe("fault spec", () => {
  it("parses kinds with rates and the retry-after and slow-ms options", () => {
    expect(parseFaultSpec("429:0.1, 503:0.05,reset:0.02,retry-after=date+3,slow-ms=250")).toEqual({
      rates: [
        { kind: "429", rate: 0.1 },
        { kind: "503", rate: 0.05 },
        { kind: "reset", rate: 0.02 },
      ],
      retryAfter: { seconds: 3, asHttpDate: true },
      slowMs: 250,
    });
    expect(parseFaultSpec("").rates).toEqual([]);
  });

  it.each([
    ["an unknown kind", "418:0.1"],
    ["a rate above 1", "500:1.5"],
    ["a missing rate", "500"],
    ["rates adding up past 1", "500:0.6,503:0.6"],
    ["an unknown option", "colour=red"],
    ["a non-numeric option", "slow-ms=soon"],
  ])("refuses %s with a usage error", (_label, spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(UsageError);
  });

  it("refuses an unknown queued fault", async () => {
    const emulator = await emulatorWith();
    expect(() => emulator.queueFaults(["teapot"])).toThrow(/not a fault/);
  });
});

describe("queued faults", () => {
  it("answers 429 with Retry-After in seconds, then serves normally", async () => {
    const emulator = await emulatorWith({ faults: "retry-after=7" });
    emulator.queueFaults(["429", "429:retry-after=2"]);
    const first = await getFromEmulator(emulator, insightsPath(emulator));
    const second = await getFromEmulator(emulator, insightsPath(emulator));
    const third = await getFromEmulator(emulator, insightsPath(emulator));
    expect([first.status, second.status, third.status]).toEqual([429, 429, 200]);
    expect(first.headers.get("retry-after")).toBe("7");
    expect(second.headers.get("retry-after")).toBe("2");
    expect(first.json()).toHaveProperty("error");
  });

  it("answers 429 with Retry-After as an HTTP date after the emulator's clock", async () => {
    const emulator = await emulatorWith();
    emulator.queueFaults(["429:retry-after=date+30"]);
    const res = await getFromEmulator(emulator, insightsPath(emulator));
    expect(res.headers.get("retry-after")).toBe("Mon, 16 Nov 2026 12:00:30 GMT");
  });

  it.each(["500", "502", "503", "504"])("answers %s with a JSON error body", async (kind) => {
    const emulator = await emulatorWith();
    emulator.queueFaults([kind]);
    const res = await getFromEmulator(emulator, insightsPath(emulator));
    expect(res.status).toBe(Number(kind));
    expect(typeof res.json().error).toBe("string");
    expect(emulator.requestLog[0]).toMatchObject({ status: Number(kind), fault: kind });
  });

  it("resets the connection without an answer", async () => {
    const emulator = await emulatorWith();
    emulator.queueFaults(["reset"]);
    await expect(getFromEmulator(emulator, insightsPath(emulator))).rejects.toThrow();
    expect(emulator.requestLog[0]).toMatchObject({ status: 0, fault: "reset" });
    expect((await getFromEmulator(emulator, insightsPath(emulator))).status).toBe(200);
  });

  it("holds a slow answer until the client gives up, and the request stays pending in the log", async () => {
    const emulator = await emulatorWith({ faults: "slow-ms=10000" });
    emulator.queueFaults(["slow"]);
    const signal = abortOnceLogged(emulator);
    await expect(getFromEmulator(emulator, insightsPath(emulator), { signal })).rejects.toThrow();
    expect(emulator.requestLog[0]).toMatchObject({ status: 0, fault: "slow" });
  });

  it("still answers correctly after a short slow delay", async () => {
    const emulator = await emulatorWith();
    emulator.queueFaults(["slow:ms=20"]);
    const res = await getFromEmulator(emulator, insightsPath(emulator));
    expect(res.status).toBe(200);
    expect(res.json().end_date).toBe("2026-11-16");
  });

  it("sends a 200 with a body that is not JSON", async () => {
    const emulator = await emulatorWith();
    emulator.queueFaults(["malformed-json"]);
    const res = await getFromEmulator(emulator, insightsPath(emulator));
    expect(res.status).toBe(200);
    expect(() => res.json()).toThrow(SyntaxError);
  });

  it("sends a 200 with valid JSON of the wrong shape, for insights and for the project list", async () => {
    const emulator = await emulatorWith();
    emulator.queueFaults(["malformed-shape", "malformed-shape"]);
    const insights = (await getFromEmulator(emulator, insightsPath(emulator))).json();
    expect(typeof insights.tests.overall_data.flaky_tests_count).toBe("string");
    const list = (await getFromEmulator(emulator, "/projects")).json();
    expect(Array.isArray(list.projects)).toBe(false);
  });

  it("alternates plain malformed between a non-JSON and a wrong-shape body", async () => {
    const emulator = await emulatorWith();
    emulator.queueFaults(["malformed", "malformed"]);
    expect(emulator.requestLog).toEqual([]);
    await getFromEmulator(emulator, "/projects");
    await getFromEmulator(emulator, "/projects");
    expect(emulator.requestLog.map((r) => r.fault)).toEqual(["malformed-json", "malformed-shape"]);
  });

  it("lets a request through untouched with none", async () => {
    const emulator = await emulatorWith({ faults: "503:1" });
    emulator.queueFaults(["none"]);
    expect((await getFromEmulator(emulator, "/projects")).status).toBe(200);
    expect((await getFromEmulator(emulator, "/projects")).status).toBe(503);
  });
});

describe("seeded faults", () => {
  const statuses = async (seed: string) => {
    const emulator = await emulatorWith({ seed, faults: "429:0.2,500:0.1,503:0.1,malformed:0.1" });
    const seen: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await getFromEmulator(emulator, "/projects");
      seen.push(`${res.status}${emulator.requestLog[i]?.fault ?? ""}`);
    }
    return seen;
  };

  it("replays the same fault sequence for the same seed", async () => {
    const first = await statuses("chaos");
    expect(await statuses("chaos")).toEqual(first);
    expect(first.filter((s) => s === "200").length).toBeGreaterThan(10);
    expect(new Set(first).size).toBeGreaterThanOrEqual(4);
    expect(await statuses("other")).not.toEqual(first);
  });
});

describe("latency", () => {
  it("holds every answer for latencyMs, and close() does not wait for held answers", async () => {
    const emulator = await emulatorWith({ latencyMs: 10_000 });
    const signal = abortOnceLogged(emulator);
    await expect(getFromEmulator(emulator, "/projects", { signal })).rejects.toThrow();
    expect(emulator.requestLog).toMatchObject([{ path: "/api/external/v1/projects", status: 0 }]);
  });

  it("works out an answer while its latency runs, not after it", async () => {
    // The answer reads the clock (today in the range's zone): long before a 10 s latency is up.
    let asked = false;
    let clockRead = () => {};
    const working = new Promise<void>((resolve) => {
      clockRead = resolve;
    });
    const emulator = await startEmulator({
      latencyMs: 10_000,
      now: () => {
        if (asked) clockRead();
        return NOW;
      },
    });
    started.push(emulator);
    const controller = new AbortController();
    asked = true;
    const query = "start_date=2026-10-01&end_date=2026-10-28&timezone=Etc/UTC";
    const answer = getFromEmulator(emulator, `${insightsPath(emulator)}?${query}`, {
      signal: controller.signal,
    });
    await working;
    expect(emulator.requestLog).toMatchObject([{ status: 0 }]);
    controller.abort();
    await expect(answer).rejects.toThrow();
  });
});
