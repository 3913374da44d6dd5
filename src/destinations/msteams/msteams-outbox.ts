import type { OutboxFiles } from "../../deliver/outbox.js";
import type { TeamsSender } from "./teams-sender.js";

/** Teams' outbox: each card as `<key>.teams.json`, the message a workflow would be sent. */
export function msteamsOutbox(files: OutboxFiles): TeamsSender {
  return {
    async send(_target, key, message) {
      await files.save(`${key}.teams.json`, `${JSON.stringify(message, null, 2)}\n`);
    },
  };
}
