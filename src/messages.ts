// What passes from the renderers to the destinations: the shapes of a Slack post, an email and
// an attached file. Renderers draw them; adapters send them as given. Both layers read this one
// vocabulary, so neither imports the other.

/** A Block Kit block, as Slack's JSON (our renderers build them; Slack validates them). */
export type SlackBlock = { type: string } & Record<string, unknown>;

type PayloadScalar = string | number | boolean;
type PayloadObject = Record<string, PayloadScalar>;

/** Slack message metadata: what names the post, so a restart can find it in the channel. */
export interface SlackMetadata {
  event_type: "insights_digest" | "insights_alert" | "insights_incident";
  event_payload: { key: string } & Record<string, PayloadScalar | PayloadObject | PayloadObject[]>;
}

export interface SlackMessage {
  /** Notification fallback; names team, period and headline figures. */
  text: string;
  blocks: SlackBlock[];
}

/** A digest as posted: one message in the channel, details as replies in its thread. */
export interface SlackPost {
  main: SlackMessage;
  metadata: SlackMetadata;
  thread: SlackMessage[];
}

/** A file to attach: the workbook, by mail or into the Slack thread; or a chart shown inline. */
export interface Attachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /** Content-ID of an image the mail's HTML shows as `cid:…`; absent for a file to download. */
  cid?: string;
}

export interface EmailMessage {
  to: string[];
  /** Copied: the owners of projects with bad news (digests) or a firing alert; absent or empty for none. */
  cc?: string[];
  subject: string;
  html: string;
  text: string;
  attachments: Attachment[];
  /** Deterministic, from the delivery key: `<key@insights-reporter>`. */
  messageId: string;
  /** The Message-ID of the first mail of its thread (an alert's fire), for `In-Reply-To` and `References`. */
  inReplyTo?: string;
  /** Other mails this one follows up (an earlier fire a regressed one names): more `References`. */
  references?: string[];
}

/**
 * What an alert evaluation decided to send, rendered in full; recorded in the ledger with the
 * new states, so a retry sends exactly this.
 */
export interface AlertNotification {
  slack: {
    channel: string;
    post: SlackPost;
    /** The fire whose thread this message belongs in (its key); null: a new post. */
    threadKey: string | null;
    /**
     * A reply that is also shown in the channel (`reply_broadcast`): an escalation, which an
     * edit of the first message would announce to no one. Absent in rows of older versions.
     */
    broadcast?: boolean;
    /** Fires' first messages to edit to their state now. */
    updates: { rootKey: string; message: SlackMessage }[];
    /**
     * The earlier fires a regressed fire's post names, by the key of their first message and
     * the words naming them: linked to their permalink at send time. Absent: none.
     */
    links?: { rootKey: string; text: string }[];
  } | null;
  email: {
    to: string[];
    subject: string;
    html: string;
    text: string;
    /** The owners copied (a fire or an escalation on their project); absent in older rows. */
    cc?: string[];
    /** The fire whose mail this one follows (its key); null or absent: the first of its thread. */
    threadKey?: string | null;
    /** The earlier fires a regressed fire's mail names (their keys): its References. Absent: none. */
    regressedFrom?: string[];
    /**
     * Where a fire's charts go, as offsets into `html` (under the transitions) and `text`
     * (before the footer): the mail job draws them in at send time (email-alert-mail.ts), so
     * no PNG is recorded. Absent: the mail carries none (a mail that follows, an incident's).
     */
    chartsAt?: { html: number; text: number };
  } | null;
  msteams: TeamsDelivery | null;
  webhook: WebhookDelivery | null;
  pagerduty: PagerdutyDelivery | null;
}

/** An Adaptive Card element or action, as the card's JSON (our renderers build them; Teams validates them). */
export type CardElement = { type: string } & Record<string, unknown>;

/** An Adaptive Card, schema 1.5 at most (what Teams renders). */
export interface AdaptiveCard {
  type: "AdaptiveCard";
  $schema: string;
  version: "1.5";
  body: CardElement[];
  actions?: CardElement[];
  /** What a client that cannot draw the card shows, and Teams' notification text. */
  fallbackText: string;
  msteams?: { width: "Full" };
}

/** What a Teams Workflows webhook takes: a message carrying one Adaptive Card. */
export interface TeamsMessage {
  type: "message";
  attachments: [
    {
      contentType: "application/vnd.microsoft.card.adaptive";
      contentUrl: null;
      content: AdaptiveCard;
    },
  ];
}

/** A card for one Teams workflow, named by its destination id: its URL stays in the config. */
export interface TeamsDelivery {
  destination: string;
  card: TeamsMessage;
}

/** One PagerDuty Events API v2 event, without its routing key (read from the config when sent). */
export interface PagerdutyEvent {
  action: "trigger" | "acknowledge" | "resolve";
  /** The fire's key: every event of one fire goes to one PagerDuty alert. */
  dedupKey: string;
  /** A trigger's: what the alert says in PagerDuty. */
  payload?: {
    summary: string;
    severity: "warning" | "critical";
    source: string;
    group: string;
    class: string;
    customDetails: Record<string, unknown>;
  };
  links: { href: string; text: string }[];
}

/** The events of one evaluation (or one acknowledgement), to one PagerDuty service, by its id. */
export interface PagerdutyDelivery {
  destination: string;
  events: PagerdutyEvent[];
}

/** A signed webhook's body as the exact text that is signed and sent, named by its destination id. */
export interface WebhookDelivery {
  destination: string;
  body: string;
}
