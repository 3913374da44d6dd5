import { type FakeEndpoint, startFakeEndpoint } from "../fake-webhooks/fake-endpoint.js";

/**
 * PagerDuty's Events API v2 (`POST /v2/enqueue`) over real HTTP on 127.0.0.1, as strict as the
 * real one about what it takes: a 32-character routing key, an action, a dedup key, and for a
 * trigger a payload with summary (≤ 1024), source and a known severity. A valid event is
 * recorded and answered 202 with its dedup key; an invalid one 400 with PagerDuty's error JSON.
 * It fails on demand (`failNext`: 429 with Retry-After, 500) like the other fakes.
 */
export interface FakeEventsApi extends Omit<FakeEndpoint, "origin" | "failNext"> {
  /** The enqueue URL, for PAGERDUTY_EVENTS_URL. */
  url: string;
  /** Events accepted, in order, as sent (routing key included). */
  events: PagerdutyWireEvent[];
  /** Answers the next `times` posts with `status`; 429 and 5xx carry PagerDuty's bodies. */
  failNext(status: 429 | 500 | 502 | 503, options?: { retryAfter?: number; times?: number }): void;
  /** Answers the next post 400 with this message in PagerDuty's error JSON. */
  refuseNext(errors: string[]): void;
}

export interface PagerdutyWireEvent {
  routing_key: string;
  event_action: "trigger" | "acknowledge" | "resolve";
  dedup_key: string;
  payload?: {
    summary: string;
    source: string;
    severity: "critical" | "error" | "warning" | "info";
    component?: string;
    group?: string;
    class?: string;
    custom_details?: Record<string, unknown>;
  };
  links?: { href: string; text?: string }[];
  client?: string;
}

/** A routing key of the right length (Events v2 integration keys are 32 characters). */
export const FAKE_ROUTING_KEY = "R0UT1NGk3yFAKEpd0123456789abcdef";

const SEVERITIES = ["critical", "error", "warning", "info"];
const ACTIONS = ["trigger", "acknowledge", "resolve"];

export async function startFakeEventsApi(): Promise<FakeEventsApi> {
  const events: PagerdutyWireEvent[] = [];
  const refusals: string[][] = [];
  const endpoint = await startFakeEndpoint((request) => {
    if (request.method !== "POST" || request.path !== "/v2/enqueue") {
      return { status: 404, body: { status: "not found" } };
    }
    const refusal = refusals.shift();
    if (refusal) return invalid(refusal);
    let event: PagerdutyWireEvent;
    try {
      event = JSON.parse(request.body) as PagerdutyWireEvent;
    } catch {
      return invalid(["Request body is not valid JSON"]);
    }
    const errors = problemsOf(event);
    if (errors.length > 0) return invalid(errors);
    events.push(event);
    return {
      status: 202,
      body: { status: "success", message: "Event processed", dedup_key: event.dedup_key },
    };
  });
  const { origin, failNext, ...rest } = endpoint;
  return {
    ...rest,
    url: `${origin}/v2/enqueue`,
    events,
    failNext: (status, options) => failNext(status, options),
    refuseNext: (errors) => {
      refusals.push(errors);
    },
  };
}

function invalid(errors: string[]) {
  return {
    status: 400,
    body: { status: "invalid event", message: "Event object is invalid", errors },
  };
}

function problemsOf(event: PagerdutyWireEvent): string[] {
  const errors: string[] = [];
  if (typeof event.routing_key !== "string" || event.routing_key.length !== 32) {
    errors.push("Length of 'routing_key' is incorrect (should be 32 characters)");
  }
  if (!ACTIONS.includes(event.event_action)) errors.push("'event_action' is invalid");
  if (typeof event.dedup_key !== "string" || event.dedup_key.length === 0) {
    errors.push("'dedup_key' is missing or blank");
  } else if (event.dedup_key.length > 255) {
    errors.push("'dedup_key' is too long (255 characters at most)");
  }
  if (event.event_action === "trigger") {
    const p = event.payload;
    if (!p) return [...errors, "'payload' is missing or blank"];
    if (typeof p.summary !== "string" || p.summary.length === 0) {
      errors.push("'payload.summary' is missing or blank");
    } else if (p.summary.length > 1024) errors.push("'payload.summary' is too long");
    if (typeof p.source !== "string" || p.source.length === 0) {
      errors.push("'payload.source' is missing or blank");
    }
    if (!SEVERITIES.includes(p.severity)) errors.push("'payload.severity' is invalid");
  }
  return errors;
}
