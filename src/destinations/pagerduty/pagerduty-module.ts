import type { DeliveryJob } from "../../deliver/deliver-all.js";
import type { PagerdutyDelivery } from "../../messages.js";
import type { DestinationModule } from "../destination-module.js";
import { targetOf } from "../url-target.js";
import {
  pagerdutyAcknowledge,
  pagerdutyEvents,
  pagerdutyIncidentEvent,
} from "./messages/pagerduty-events.js";
import {
  PAGERDUTY_CONFIG,
  type PagerdutyGlobal,
  type PagerdutyTarget,
  type pagerdutySchema,
} from "./pagerduty-config.js";
import { pagerdutyOutbox } from "./pagerduty-outbox.js";
import { createPagerdutySender, type PagerdutySender } from "./pagerduty-sender.js";

/** The types PagerDuty works with (see DestinationShape); it takes no digest. */
export interface PagerdutyShape {
  schema: typeof pagerdutySchema;
  global: PagerdutyGlobal;
  digestTarget: never;
  alertTarget: PagerdutyTarget;
  address: { destination: string };
  digestMessage: never;
  /** Null: the evaluation says nothing new to a pager (a reminder). */
  alertMessage: PagerdutyDelivery | null;
  clients: { digest: PagerdutySender; alert: PagerdutySender };
}

/** Where a PagerDuty destination's secret is, as an operator reads it. */
const FIELD = "alert's pagerduty.routing_key";

/**
 * PagerDuty's Events API v2: each fire is one PagerDuty alert, its key the dedup key —
 * triggered when it fires, triggered again with the new severity when it escalates or
 * de-escalates, acknowledged when someone acknowledges it in Slack, resolved when it resolves.
 * PagerDuty cannot be searched, so there is no `recover`; a resend after a crash carries the
 * same dedup key, which PagerDuty folds into the alert it has (ADR 0005, ADR 0010).
 */
export const PAGERDUTY: DestinationModule<"pagerduty", PagerdutyShape> = {
  ...PAGERDUTY_CONFIG,
  id: ({ destination }) => destination,
  clients: (global) => {
    const sender = createPagerdutySender(global);
    return { digest: sender, alert: sender, close: async () => {} };
  },
  outbox: (files) => {
    const outbox = pagerdutyOutbox(files);
    return { digest: outbox, alert: outbox };
  },
  // The schema refuses `pagerduty:` on a digest, so none is ever rendered or sent.
  renderDigest: (target) => target,
  renderAlert: ({ destination }, input) => {
    const events = pagerdutyEvents(input);
    return events.length === 0 ? null : { destination, events };
  },
  renderIncident: ({ destination }, input) => ({
    destination,
    events: [pagerdutyIncidentEvent(input)],
  }),
  digestJob: (_key, message) => message,
  alertJob: (key, message, sender, _deps, target) => eventsJob(key, message, sender, target),
  acknowledgeJob: (fireKey, target, sender) =>
    eventsJob(
      fireKey,
      { destination: target.destination, events: [pagerdutyAcknowledge(fireKey)] },
      sender,
      target,
    ),
};

/**
 * Sends the events in order, each recorded as a part once PagerDuty took it, so a retry after
 * a failure mid-way sends only the ones it has not (PagerDuty would fold a repeat in anyway).
 */
function eventsJob(
  key: string,
  delivery: PagerdutyDelivery | null,
  sender: PagerdutySender,
  target: PagerdutyTarget | null,
): DeliveryJob {
  const events = delivery?.events ?? [];
  const destination = delivery?.destination ?? target?.destination ?? "pagerduty";
  return {
    id: destination,
    send: async (progress) => {
      const to = targetOf({ destination }, target, FIELD, key);
      for (const event of events) {
        const part = `${event.action} ${event.dedupKey}`;
        if (progress.done.has(part)) continue;
        await sender.send(to, event, key);
        await progress.record(part, null);
      }
      return {};
    },
  };
}
