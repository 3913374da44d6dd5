import {
  type DescribeFailure,
  type PostOptions,
  postWithRetries,
} from "../../deliver/http-post.js";
import type { PagerdutyEvent } from "../../messages.js";
import { redactSecrets, Secret } from "../../secret.js";

// Sends one event to PagerDuty's Events API v2, with the delivery rules of every URL
// destination (postWithRetries): a 429 or a 5xx is tried again after the Retry-After PagerDuty
// asked for; a 400 is PagerDuty refusing the event, given up at once with its own words. The
// routing key travels in the body only, and is redacted from whatever PagerDuty answers.

/** What sends one event to one PagerDuty service. */
export interface PagerdutySender {
  /** `key`: the evaluation (or acknowledgement) the event is part of, for the outbox's file name. */
  send(
    target: { routingKey: Secret; destination: string },
    event: PagerdutyEvent,
    key: string,
  ): Promise<void>;
}

/** A sender over HTTP to `eventsUrl`. */
export function createPagerdutySender(
  options: PostOptions & { eventsUrl: string },
): PagerdutySender {
  // Not a secret; wrapped because the HTTP poster takes a URL that may carry one.
  const url = new Secret(options.eventsUrl);
  return {
    async send(target, event) {
      await postWithRetries(
        {
          url,
          body: JSON.stringify(wireEvent(target.routingKey, event)),
          headers: () => ({ "Content-Type": "application/json" }),
          destination: target.destination,
          describe: describePagerdutyFailure(target.destination, target.routingKey),
        },
        options,
      );
    },
  };
}

/** The event as the Events API v2 takes it (snake_case, the routing key in it). */
function wireEvent(routingKey: Secret, event: PagerdutyEvent): Record<string, unknown> {
  const { payload } = event;
  return {
    routing_key: routingKey.reveal(),
    event_action: event.action,
    dedup_key: event.dedupKey,
    client: "insights-reporter",
    ...(payload
      ? {
          payload: {
            summary: payload.summary,
            severity: payload.severity,
            source: payload.source,
            group: payload.group,
            class: payload.class,
            custom_details: payload.customDetails,
          },
        }
      : {}),
    ...(event.links.length > 0 ? { links: event.links } : {}),
  };
}

/** What a failed event means, and whether trying again can help. */
function describePagerdutyFailure(destination: string, routingKey: Secret): DescribeFailure {
  return ({ status, detail, redirect }) => {
    const said = pagerdutyWords(redactSecrets(detail, [routingKey.reveal()]));
    if (status === null) {
      return { message: `PagerDuty (${destination}) did not answer (${detail})`, retry: true };
    }
    if (status === 429 || status >= 500) {
      return { message: `PagerDuty answered ${status} for ${destination}${said}`, retry: true };
    }
    if (status >= 300 && status < 400) {
      return {
        message: `PagerDuty's events URL redirected to ${redirect ?? "another place"} (${status}); redirects are not followed — set PAGERDUTY_EVENTS_URL to the final URL, or unset it for ${"https://events.pagerduty.com/v2/enqueue"}`,
        retry: false,
      };
    }
    if (status === 400) {
      return {
        message: `PagerDuty refused the event for ${destination} (400${said}) — check that the alert's pagerduty.routing_key is the integration key of an Events API v2 integration (32 characters)`,
        retry: false,
      };
    }
    return {
      message: `PagerDuty refused the event for ${destination} (${status}${said}) — check the alert's pagerduty.routing_key and PAGERDUTY_EVENTS_URL`,
      retry: false,
    };
  };
}

/**
 * PagerDuty's error JSON in words: `{"message":"Event object is invalid","errors":[…]}` →
 * ": Event object is invalid: …". A body cut short or not JSON is quoted as it is.
 */
function pagerdutyWords(detail: string): string {
  if (detail === "") return "";
  try {
    const body = JSON.parse(detail) as { message?: unknown; errors?: unknown };
    const errors = Array.isArray(body.errors) ? body.errors.map(String) : [];
    const message = typeof body.message === "string" ? body.message : "";
    const words = [message, ...errors].filter((w) => w !== "").join(": ");
    return words === "" ? `: ${detail}` : `: ${words}`;
  } catch {
    return `: ${detail}`;
  }
}
