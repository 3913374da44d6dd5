import {
  type DescribeFailure,
  type PostOptions,
  postWithRetries,
} from "../../deliver/http-post.js";
import type { Secret } from "../../secret.js";
import type { WebhookFormat } from "./webhook-config.js";
import { signedWebhookHeaders, standardWebhookHeaders } from "./webhook-signature.js";

// Posts the signed webhook's body: each attempt signed afresh (in the format the target says) (a receiver refuses old
// timestamps), always with the slot key as Idempotency-Key, so a resend after a crash between
// send and record is recognisable as the same message (ADR 0005).

/** What posts one signed body. */
export interface WebhookSender {
  send(
    /** `format` absent: the Insights form. */
    target: { url: Secret; secret: Secret; destination: string; format?: WebhookFormat },
    key: string,
    rawBody: string,
  ): Promise<void>;
}

/** A sender over HTTP, with the delivery rules of `postWithRetries`. */
export function createWebhookSender(options: PostOptions): WebhookSender {
  const now = options.now ?? Date.now;
  return {
    async send(target, key, rawBody) {
      await postWithRetries(
        {
          url: target.url,
          body: rawBody,
          headers: () =>
            SIGN[target.format ?? "insights"]({
              secret: target.secret.reveal(),
              rawBody,
              key,
              now: now() / 1000,
            }),
          destination: target.destination,
          describe: describeWebhookFailure(target.destination),
        },
        options,
      );
    },
  };
}

/** The headers of each format (webhook-config.ts, `format`). */
const SIGN = { insights: signedWebhookHeaders, standard: standardWebhookHeaders } as const;

/** What a failed webhook post means, and whether trying again can help. */
export function describeWebhookFailure(destination: string): DescribeFailure {
  return ({ status, detail, redirect }) => {
    const said = detail === "" ? "" : `: ${detail}`;
    if (status === null) {
      return { message: `the webhook ${destination} did not answer (${detail})`, retry: true };
    }
    if (status >= 300 && status < 400) {
      return {
        message: `the webhook ${destination} redirected to ${redirect ?? "another place"} (${status}); redirects are not followed, so the signed body goes only where webhook.url says — set webhook.url to the receiver's final URL`,
        retry: false,
      };
    }
    if (status === 429 || status >= 500) {
      return { message: `the webhook ${destination} answered ${status}${said}`, retry: true };
    }
    if (status === 401 || status === 403) {
      return {
        message: `the webhook ${destination} refused the request (${status}${said}) — check that the receiver verifies the signature (X-Insights-Signature, or webhook-signature with format: standard) with the same secret as webhook.secret, and that its clock is right`,
        retry: false,
      };
    }
    if (status === 404 || status === 410) {
      return {
        message: `the webhook ${destination} answered ${status}: nothing is there — check webhook.url`,
        retry: false,
      };
    }
    if (status === 408) {
      return {
        message: `the webhook ${destination} timed out reading the request (408)`,
        retry: true,
      };
    }
    return {
      message: `the webhook ${destination} refused the body (${status}${said})`,
      retry: false,
    };
  };
}
