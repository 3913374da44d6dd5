import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPagerdutySender } from "../../../src/destinations/pagerduty/pagerduty-sender.js";
import { worthRetrying } from "../../../src/errors.js";
import { Secret } from "../../../src/secret.js";
import {
  FAKE_ROUTING_KEY,
  type FakeEventsApi,
  startFakeEventsApi,
} from "../../fake-pagerduty/fake-events-api.js";

// The PagerDuty sender against a fake Events API v2 over HTTP: what a 429, a 5xx and a 400 do
// to one event. The sleeps are handed in and recorded, so a Retry-After is seen to be honoured.

let api: FakeEventsApi;
beforeAll(async () => {
  api = await startFakeEventsApi();
});
afterAll(() => api?.close());
afterEach(() => {
  api.requests.length = 0;
  api.events.length = 0;
});

const target = { routingKey: new Secret(FAKE_ROUTING_KEY), destination: "pagerduty:3f9a2c" };
const trigger = {
  action: "trigger" as const,
  dedupKey: "design.alert.flaky-rate.2026-11-18",
  payload: {
    summary: "Design · flaky-rate: Design system flaky rate 4.2% — above warn 3%",
    severity: "warning" as const,
    source: "insights-reporter/design",
    group: "design",
    class: "flaky_rate",
    customDetails: { value: "4.2%" },
  },
  links: [],
};

function sender() {
  const slept: number[] = [];
  const send = createPagerdutySender({
    eventsUrl: api.url,
    timeoutMs: 5_000,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
  return { send, slept };
}

describe("the PagerDuty sender", () => {
  it("waits the Retry-After of a 429, then sends the event once", async () => {
    api.failNext(429, { retryAfter: 7 });
    const { send, slept } = sender();
    await send.send(target, trigger, "design.alert.flaky-rate.2026-11-18");
    expect(api.requests.map((r) => r.status)).toEqual([429, 202]);
    expect(slept).toEqual([7_000]);
    expect(api.events).toHaveLength(1);
    expect(api.events[0]).toMatchObject({
      routing_key: FAKE_ROUTING_KEY,
      event_action: "trigger",
      dedup_key: trigger.dedupKey,
      payload: { severity: "warning", summary: trigger.payload.summary },
    });
  });

  it("tries a 500 again, and gives up worth retrying later when it persists", async () => {
    api.failNext(500, { times: 3 });
    const { send } = sender();
    const error = await send
      .send(target, trigger, "design.alert.flaky-rate.2026-11-18")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/PagerDuty answered 500/);
    expect(worthRetrying(error)).toBe(true);
    expect(api.requests).toHaveLength(3);
    expect(api.events).toEqual([]);
  });

  it("fails a 400 at once, naming PagerDuty's message and never the routing key", async () => {
    api.refuseNext([`Routing key ${FAKE_ROUTING_KEY} is not an Events API v2 integration key`]);
    const { send, slept } = sender();
    const error = (await send
      .send(target, trigger, "design.alert.flaky-rate.2026-11-18")
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("Event object is invalid");
    expect(error.message).toContain("is not an Events API v2 integration key");
    expect(error.message).toContain("pagerduty.routing_key");
    expect(error.message).not.toContain(FAKE_ROUTING_KEY);
    expect(JSON.stringify(error)).not.toContain(FAKE_ROUTING_KEY);
    expect(worthRetrying(error)).toBe(false);
    expect(api.requests).toHaveLength(1);
    expect(slept).toEqual([]);
  });
});
