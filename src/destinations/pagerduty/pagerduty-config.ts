import * as z from "zod";
import { Secret } from "../../secret.js";
import { secretText } from "../../secret-text.js";
import { configPart } from "../config-part.js";
import { hashedDestinationId } from "../url-destination-id.js";
import { urlTimeoutSection } from "../url-timeout-config.js";

// PagerDuty's part of the config: an alert names the routing key of an Events API v2
// integration (a secret: whoever has it can open incidents), and the section at the top holds
// where events go and how long one may take. Digests are not incidents: `pagerduty:` on a
// digest is refused, saying where it belongs.

/** PagerDuty's Events API v2, unless PAGERDUTY_EVENTS_URL (or `pagerduty.events_url`) says another. */
export const PAGERDUTY_EVENTS_URL = "https://events.pagerduty.com/v2/enqueue";

const timeout = urlTimeoutSection("one event sent to PagerDuty", "PagerDuty destination");

/** `pagerduty:` at the top of the config file. */
const global = z
  .strictObject({
    events_url: z
      .string()
      .optional()
      .describe(
        `Where events are sent; defaults to \${PAGERDUTY_EVENTS_URL} or ${PAGERDUTY_EVENTS_URL}.`,
      ),
    timeout_ms: timeout.unwrap().shape.timeout_ms,
  })
  // Parsed from {} when absent, so the timeout's default is filled as written there.
  .prefault({})
  .describe("Settings shared by every PagerDuty destination.");

/** A digest is not an incident: any value here is refused, with where PagerDuty belongs. */
const digest = z
  .looseObject({})
  .refine(() => false, {
    message:
      "PagerDuty takes alerts, not digests — move it to one of the team's alerts (teams[].alerts[].pagerduty: { routing_key: ${PD_ROUTING_KEY} }), and send the digest to slack:, email:, msteams: or webhook:",
  })
  .describe("Not for digests: PagerDuty takes alerts only (teams[].alerts[].pagerduty).");

const alert = z
  .strictObject({
    routing_key: secretText.describe(
      "The integration key of a PagerDuty service's Events API v2 integration (32 characters), e.g. ${PD_ROUTING_KEY}. A secret: it opens incidents.",
    ),
  })
  .describe(
    "Open a PagerDuty incident when the alert fires (warning or critical), update it when it escalates or de-escalates, acknowledge it when someone acknowledges in Slack, and resolve it when the alert resolves.",
  );

export const pagerdutySchema = { global, digest, alert };

/** The shared PagerDuty settings, resolved. */
export interface PagerdutyGlobal {
  eventsUrl: string;
  timeoutMs: number;
}

/** An alert's PagerDuty service: its routing key and the id it goes by without it. */
export interface PagerdutyTarget {
  routingKey: Secret;
  destination: string;
}

/**
 * `pagerduty:3f9a2c`: the kind and 6 hex digits of the routing key's SHA-256, so the ledger,
 * the logs and `history` tell services apart without the key.
 */
export function pagerdutyDestinationId(routingKey: Secret): string {
  return hashedDestinationId("pagerduty", routingKey, 6);
}

/** The config as written → camelCase, the routing key wrapped. */
export const resolvePagerduty = {
  global: (input: z.output<typeof global>): PagerdutyGlobal => ({
    eventsUrl: input.events_url ?? PAGERDUTY_EVENTS_URL,
    timeoutMs: input.timeout_ms,
  }),
  digest: (_input: z.output<typeof digest>): never => {
    throw new Error("a digest has no PagerDuty destination (the schema refuses one)");
  },
  alert: (input: z.output<typeof alert>): PagerdutyTarget => {
    const routingKey = new Secret(input.routing_key);
    return { routingKey, destination: pagerdutyDestinationId(routingKey) };
  },
};

/** What the config needs of PagerDuty (see DestinationConfigPart). */
export const PAGERDUTY_CONFIG = configPart("pagerduty", pagerdutySchema, resolvePagerduty, {
  envDefaults: { events_url: "PAGERDUTY_EVENTS_URL" },
  // Each alert carries its own routing key: nothing shared to ask for.
  credential: null,
});
