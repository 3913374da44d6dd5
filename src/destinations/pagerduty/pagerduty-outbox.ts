import type { OutboxFiles } from "../../deliver/outbox.js";
import type { PagerdutySender } from "./pagerduty-sender.js";

/**
 * PagerDuty's outbox: each event as `<evaluation key>.pagerduty.<action>.<dedup key>.json` (one
 * event per fire and evaluation), without its routing key: the destination's id names the service.
 */
export function pagerdutyOutbox(files: OutboxFiles): PagerdutySender {
  return {
    async send(target, event, key) {
      const shown = { destination: target.destination, ...event };
      await files.save(
        `${key}.pagerduty.${event.action}.${event.dedupKey}.json`,
        `${JSON.stringify(shown, null, 2)}\n`,
      );
    },
  };
}
