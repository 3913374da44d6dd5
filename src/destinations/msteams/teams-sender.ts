import {
  type DescribeFailure,
  type PostOptions,
  postWithRetries,
} from "../../deliver/http-post.js";
import type { TeamsMessage } from "../../messages.js";
import type { Secret } from "../../secret.js";

// Posts a card to a Teams Workflows webhook ("Post to a channel when a webhook request is
// received"). The workflow answers 202 once it has the card; it cannot be asked afterwards
// whether it posted one, so a Teams destination has no `recover` (ADR 0005).

/** What sends a card to one Teams workflow. */
export interface TeamsSender {
  send(
    target: { url: Secret; destination: string },
    key: string,
    message: TeamsMessage,
  ): Promise<void>;
}

/** A sender over HTTP, with the delivery rules of `postWithRetries`. */
export function createTeamsSender(options: PostOptions): TeamsSender {
  return {
    async send(target, _key, message) {
      await postWithRetries(
        {
          url: target.url,
          body: JSON.stringify(message),
          headers: () => ({ "Content-Type": "application/json" }),
          destination: target.destination,
          describe: describeTeamsFailure(target.destination),
        },
        options,
      );
    },
  };
}

/** What a failed post to a Teams workflow means, and whether trying again can help. */
export function describeTeamsFailure(destination: string): DescribeFailure {
  return ({ status, detail, redirect }) => {
    const said = detail === "" ? "" : `: ${detail}`;
    if (status !== null && status >= 300 && status < 400) {
      return {
        message: `the Teams workflow of ${destination} redirected to ${redirect ?? "another place"} (${status}); redirects are not followed, so the card goes only where msteams.webhook_url says — copy the workflow's URL again from Teams`,
        retry: false,
      };
    }
    switch (status) {
      case null:
        return {
          message: `the Teams workflow of ${destination} did not answer (${detail})`,
          retry: true,
        };
      case 404:
        return {
          message: `the Teams workflow of ${destination} was not found (404): it was deleted or its URL changed — in Teams, add the "Post to a channel when a webhook request is received" workflow to the channel again and put its URL in msteams.webhook_url`,
          retry: false,
        };
      case 401:
      case 403:
        return {
          message: `the Teams workflow of ${destination} refused the URL's signature (${status}) — copy the workflow's URL again, with its sig= part, into msteams.webhook_url`,
          retry: false,
        };
      case 413:
        return {
          message: `Teams refused the card for ${destination} as too large (413; its limit is 28 KB) — the card is cut to fit before it is sent, so this is a bug: report it with the slot key`,
          retry: false,
        };
      case 400:
        return {
          message: `Teams refused the card for ${destination} (400${said}) — a card Teams cannot read is a bug: report it with the slot key`,
          retry: false,
        };
      default:
        return status === 429 || status >= 500
          ? {
              message: `the Teams workflow of ${destination} answered ${status}${said}`,
              retry: true,
            }
          : {
              message: `the Teams workflow of ${destination} refused the card (${status}${said})`,
              retry: false,
            };
    }
  };
}
