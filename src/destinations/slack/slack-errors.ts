import { ErrorCode } from "@slack/web-api";
import { SlackDeliveryError } from "../../errors.js";
import { redactSecrets } from "../../secret.js";

/** Where a Slack call failed: the method, and the channel as the config names it. */
export interface SlackCallSite {
  method: string;
  channel: string | null;
}

const AUTH_ERRORS = new Set([
  "invalid_auth",
  "token_revoked",
  "account_inactive",
  "not_authed",
  "token_expired",
]);
const CHANNEL_ERRORS = new Set(["not_in_channel", "channel_not_found", "is_archived"]);
/** Errors that mean our own message was malformed: a bug, not a setup problem. */
const MESSAGE_ERRORS = new Set([
  "invalid_blocks",
  "invalid_blocks_format",
  "msg_too_long",
  "no_text",
  "invalid_metadata_format",
  "invalid_metadata_schema",
  "metadata_too_large",
  "too_many_attachments",
  "invalid_arguments",
]);

/**
 * Failures no retry can mend: a person must fix the token, the channel or the bot's scopes,
 * or our code must stop sending a malformed message. Given up at once, not retried for hours.
 */
const NOT_WORTH_RETRYING = new Set([
  ...AUTH_ERRORS,
  ...CHANNEL_ERRORS,
  ...MESSAGE_ERRORS,
  "missing_scope",
]);

/** The sender's verdict on a Slack error code: retry unless no retry can mend it. */
export function slackVerdict(code: string | null): { retry: boolean } {
  return { retry: code === null || !NOT_WORTH_RETRYING.has(code) };
}

/**
 * Maps whatever @slack/web-api threw into a SlackDeliveryError that says what is wrong and how
 * to fix it. Only Slack's error string, scope names and statuses are copied: never the library
 * error itself, whose request config carries the token.
 */
export function toSlackDeliveryError(
  error: unknown,
  site: SlackCallSite,
  /** Scrubbed from any free text copied from the library, as a second belt. */
  token?: string,
): SlackDeliveryError {
  if (error instanceof SlackDeliveryError) return error;
  const context = { method: site.method, channel: site.channel };
  const coded = error as {
    code?: unknown;
    data?: unknown;
    statusCode?: unknown;
    retryAfter?: unknown;
  };
  const message = redactSecrets(error instanceof Error ? error.message : String(error), [token]);

  if (coded.code === ErrorCode.PlatformError && isRecord(coded.data)) {
    const classified = fromPlatformError(coded.data, site);
    const { message, slackError, context } = classified;
    return new SlackDeliveryError(message, slackError, context, slackVerdict(slackError));
  }
  if (coded.code === ErrorCode.RateLimitedError) {
    const retryAfter = typeof coded.retryAfter === "number" ? coded.retryAfter : null;
    return new SlackDeliveryError(
      `Slack kept rate-limiting ${site.method}${retryAfter === null ? "" : ` (last Retry-After: ${retryAfter} s)`}, longer than its retries may wait — try again in a few minutes`,
      "ratelimited",
      { ...context, retryAfterSeconds: retryAfter },
    );
  }
  if (coded.code === ErrorCode.HTTPError && typeof coded.statusCode === "number") {
    return new SlackDeliveryError(
      `Slack answered ${site.method} with HTTP ${coded.statusCode} — Slack may be having trouble (https://slack-status.com); try again later`,
      null,
      { ...context, status: coded.statusCode },
    );
  }
  if (
    coded.code === ErrorCode.RequestError &&
    /maxContentLength size of \d+ exceeded/.test(message)
  ) {
    return new SlackDeliveryError(
      `the answer to ${site.method} was larger than a Slack answer can be, and was not read to its end — check SLACK_API_URL if it is set: what answers there is not Slack`,
      null,
      context,
    );
  }
  if (coded.code === ErrorCode.RequestError) {
    return new SlackDeliveryError(
      `could not reach Slack for ${site.method} (${message.replace(/^A request error occurred: /, "")}) — check the network, and SLACK_API_URL if it is set`,
      null,
      context,
    );
  }
  return new SlackDeliveryError(`Slack ${site.method} failed: ${message}`, null, context);
}

function fromPlatformError(data: Record<string, unknown>, site: SlackCallSite): SlackDeliveryError {
  const code = typeof data.error === "string" ? data.error : "unknown_error";
  const context = { method: site.method, channel: site.channel };
  const where = label(site.channel);
  if (CHANNEL_ERRORS.has(code)) {
    const what =
      code === "not_in_channel"
        ? `the bot is not a member of ${where}`
        : code === "is_archived"
          ? `${where} is archived`
          : `Slack finds no channel ${where} that the bot can see`;
    return new SlackDeliveryError(
      `${what} (${code}) — invite the bot to ${where} (/invite @yourbot) or use the channel id (C…)`,
      code,
      context,
    );
  }
  if (AUTH_ERRORS.has(code)) {
    return new SlackDeliveryError(
      `the Slack token was refused (${code}) — check SLACK_BOT_TOKEN: a bot token (xoxb-…) of an app that is still installed`,
      code,
      context,
    );
  }
  if (code === "missing_scope") {
    const needed = typeof data.needed === "string" && data.needed ? data.needed : null;
    const scope = needed ? `the ${needed} scope` : `the scope ${site.method} needs`;
    return new SlackDeliveryError(
      `the Slack app lacks ${scope} for ${site.method} — add ${scope} to the Slack app (OAuth & Permissions) and reinstall it`,
      code,
      { ...context, needed },
    );
  }
  if (code === "ratelimited") {
    return new SlackDeliveryError(
      `Slack rate-limited ${site.method} — try again later`,
      code,
      context,
    );
  }
  if (MESSAGE_ERRORS.has(code)) {
    const detail = details(data);
    return new SlackDeliveryError(
      `Slack refused the message as malformed (${code}${detail ? `: ${detail}` : ""}) — this is a bug in insights-reporter; please report it with this text`,
      code,
      { ...context, detail },
    );
  }
  return new SlackDeliveryError(`Slack ${site.method} failed: ${code}`, code, context);
}

/** Slack's `[ERROR] …` lines from `response_metadata.messages`, joined. */
function details(data: Record<string, unknown>): string {
  const meta = data.response_metadata;
  const messages = isRecord(meta) && Array.isArray(meta.messages) ? meta.messages : [];
  return messages.map(String).join("; ");
}

/** A channel as people write it: `#name` for names, the bare id for ids. */
export function label(channel: string | null): string {
  if (!channel) return "the channel";
  return isChannelId(channel) || channel.startsWith("#") ? channel : `#${channel}`;
}

/** Conversation ids (public C…, private G…, direct D…) go to Slack as they are. */
export function isChannelId(channel: string): boolean {
  return /^[CGD][A-Z0-9]{6,}$/.test(channel);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
