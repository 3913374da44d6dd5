import type * as z from "zod";
import type { DeliveryJob } from "../deliver/deliver-all.js";
import type { OutboxFiles } from "../deliver/outbox.js";
import type { Logger } from "../logger.js";
import type { Attachment, EmailMessage } from "../messages.js";
import type { AlertMessageInput, RootView } from "../render/alert/alert-view.js";
import type { Chart } from "../render/charts/trend-chart.js";
import type { Report } from "../report/types.js";
import type { IncidentRecord } from "../state/incidents.js";
import type { SharedLimits } from "../state/shared-limits.js";
import type { FireImages } from "./fire-images.js";

// What one destination (Slack, email, …) is to the rest of the reporter: its part of the
// config, its id, its clients, the jobs that send a digest and an alert, and the files its
// outbox writes (ADR 0004). Each kind lives in its own folder and is listed once, in
// registry.ts; its error classification (the retry verdict) lives beside its adapter.

/** The types one destination kind works with; the module is typed by them. */
export interface DestinationShape {
  /** zod fragments: the shared settings (`slack:`), a digest's and an alert's destination. */
  schema: { global: z.ZodType; digest: z.ZodType; alert: z.ZodType };
  /** The shared settings, resolved (camelCase, secrets wrapped). */
  global: unknown;
  /** A digest's destination, resolved. */
  digestTarget: unknown;
  /** An alert's destination, resolved. */
  alertTarget: unknown;
  /** What names a destination in the ledger (`channel`, `to`), read off a target or message. */
  address: unknown;
  /** A digest as rendered for this destination. */
  digestMessage: unknown;
  /** An alert's notification as rendered for this destination (`AlertNotification[kind]`). */
  alertMessage: unknown;
  /** What sends a digest, and what sends an alert's messages. */
  clients: { digest: unknown; alert: unknown };
}

/** What a digest's deliveries need besides the destination's client. */
export interface DigestJobDeps {
  logger: Logger;
  /** No fire covers a period before it has ended: where to start looking for an earlier post. */
  since: Date;
  /** What fits a mail under `maxBytes` (email/messages/fit-email-to-size), handed in. */
  fitEmail: FitEmail;
  /** The run's shared reads (`RequestCache.reads`): a channel is looked in once per tick. */
  reads?: Map<string, unknown>;
}

/** What fits a mail under `maxBytes`: the email renderer's, handed in with the digest's own hint. */
export type FitEmail = (
  message: EmailMessage,
  cap: { maxBytes: number; measure(message: EmailMessage): Promise<number> },
) => Promise<{ message: EmailMessage; dropped: Attachment[]; fullBytes: number | null }>;

/** What every kind renders a digest from: the report and what the pipeline made beside it. */
export interface DigestRenderInput {
  key: string;
  report: Report;
  /** Each project's owners, by project id: mentioned or copied when their project has news. */
  owners: Readonly<Record<string, readonly string[]>>;
  /** The workbook, when the digest attaches one anywhere. */
  workbook: Attachment | undefined;
  /** The digest's trend charts; none without `charts` in its config. */
  charts: readonly Chart[];
  /** Where a reader who wants every project finds them: the workbook's place, in words. */
  workbookWhere: string;
}

/** What every kind renders an alert evaluation's notification from. */
export interface AlertRenderInput {
  message: AlertMessageInput;
  now: string;
  /** The fire this message follows (a reply in its thread), or null when it opens one. */
  threadKey: string | null;
  /** Each fire a transition follows, as it stands now: what edits its first message. */
  roots: readonly RootView[];
  /** Whether something escalated: a reply then shows in the channel too. */
  broadcast: boolean;
}

/** What every kind renders an incident from: when it forms, and when its last member resolves. */
export interface IncidentRenderInput {
  /** The slot's key: the incident's, or its resolution's. */
  key: string;
  /** The incident's key: a pager's dedup key, the Message-ID a resolution's mail follows. */
  incidentKey: string;
  record: IncidentRecord;
  /** Whether every member has stopped firing (the resolution's message). */
  resolved: boolean;
  /** The instant it formed or resolved (ISO). */
  now: string;
}

/** What an alert's deliveries need besides the destination's client. */
export interface AlertJobDeps {
  logger: Logger;
  /** No message of the evaluation precedes this: where to start looking for one. */
  since: Date;
  /** The ts of a fire's first message in a channel, or null when it was never posted. */
  threadTs: (rootKey: string, channel: string) => Promise<string | null>;
  /**
   * The fire's first message is now `ts`: its old one was deleted, so this message went out as
   * a new post, which later changes reply to and edit (see `threadTs`). Absent: not kept.
   */
  moveThread?: (rootKey: string, channel: string, ts: string) => Promise<void>;
  /** The run's shared reads (`RequestCache.reads`): a channel is looked in once per tick. */
  reads?: Map<string, unknown>;
  /**
   * The fire's charts, for a message that opens it (`opensFire`): Slack uploads them into its
   * thread, the mail shows them inline. Absent: the alert draws none (no `chart: true`, or an
   * incident's message).
   */
  images?: FireImages;
}

/** One destination kind, as registry.ts lists it. */
export interface DestinationModule<K extends string, T extends DestinationShape>
  extends DestinationConfigPart<K, T> {
  /** The destination's id within a slot, as the ledger records it: `slack:C0123`. */
  id(address: T["address"]): string;
  /**
   * The real clients, or null when the credential is not set; the SDK loads on first use.
   * `shared`: the limits replicas keep together (state.url on PostgreSQL); none for one process.
   * `foreground`: a person waits at a terminal (see `ClientOptions.foreground`).
   */
  clients(
    global: T["global"],
    logger: Logger,
    context?: { shared?: SharedLimits | null; foreground?: boolean },
  ): (T["clients"] & { close(): Promise<void> }) | null;
  /**
   * `check-config --online` for one configured destination, without sending to it: for a kind
   * whose destinations each carry their own URL. Absent where the shared credential's check covers it.
   */
  probe?(
    target: T["digestTarget"] | T["alertTarget"],
    global: T["global"],
  ): Promise<{ ok: boolean; message: string }>;
  /** `--outbox DIR`: clients that write what would be sent as files instead. */
  outbox(files: OutboxFiles, global: T["global"]): T["clients"];
  /** The digest as this kind shows it, for one destination. */
  renderDigest(target: T["digestTarget"], input: DigestRenderInput): T["digestMessage"];
  /** An alert evaluation's notification as this kind shows it, to one destination. */
  renderAlert(address: T["address"], input: AlertRenderInput): T["alertMessage"];
  /**
   * An incident (or its resolution) as this kind shows it, sent by `alertJob` like an alert's
   * message. Absent: the kind delivers incidents its own way (Slack's thread, slack-incident-job.ts).
   */
  renderIncident?(address: T["address"], input: IncidentRenderInput): T["alertMessage"];
  /** `target`: the destination as configured now (a URL kept out of the message is read there). */
  digestJob(
    key: string,
    message: T["digestMessage"],
    client: T["clients"]["digest"],
    deps: DigestJobDeps,
    target: T["digestTarget"] | null,
  ): DeliveryJob;
  alertJob(
    key: string,
    message: T["alertMessage"],
    client: T["clients"]["alert"],
    deps: AlertJobDeps,
    target: T["alertTarget"] | null,
  ): DeliveryJob;
  /**
   * Someone acknowledged a fire (a Slack button): the job that tells this destination, for a
   * kind that keeps each fire's state itself (PagerDuty's alert). Absent: nothing to tell.
   */
  acknowledgeJob?(
    fireKey: string,
    target: T["alertTarget"],
    client: T["clients"]["alert"],
  ): DeliveryJob;
}

/** The parts of a kind's shape its config part reads. */
export type ConfigShapeKey = "schema" | "global" | "digestTarget" | "alertTarget";

/** The types a kind's config part works with: its schema fragments and what they resolve to. */
export type ConfigShape = Pick<DestinationShape, ConfigShapeKey>;

/**
 * What the config needs of a kind: its fragment, how it resolves, its environment defaults and
 * credential. Each kind's `<kind>-config.ts` exports one, free of renderers and senders, so a
 * command loads a config without them (config-registry.ts); its module spreads it.
 */
export interface DestinationConfigPart<K extends string, T extends ConfigShape> {
  kind: K;
  schema: T["schema"];
  /** The config as written (snake_case, defaults filled) → resolved. */
  resolve: {
    global(input: z.output<T["schema"]["global"]>): T["global"];
    digest(input: z.output<T["schema"]["digest"]>): T["digestTarget"];
    alert(input: z.output<T["schema"]["alert"]>): T["alertTarget"];
  };
  /** Settings of the shared section that default to an environment variable, by key. */
  envDefaults: Readonly<Record<string, string>>;
  /**
   * The shared setting no delivery can go without (a token, an SMTP URL), by key; null for a
   * kind whose every destination carries its own (a Teams workflow's URL, a webhook's).
   */
  credential: { key: string; variable: string } | null;
}
