import { type DescribeFailure, type PostRequest, probeUrl } from "../deliver/http-post.js";
import type { OutboxFiles } from "../deliver/outbox.js";
import type {
  AlertRenderInput,
  ConfigShapeKey,
  DestinationConfigPart,
  DestinationModule,
  DestinationShape,
  DigestRenderInput,
  IncidentRenderInput,
} from "./destination-module.js";
import { targetOf } from "./url-target.js";

// A kind whose every destination carries its own URL (a Teams workflow, a signed webhook): no
// shared credential, the destination's id is the one its URL goes by, one sender serves digests
// and alerts, `check-config --online` asks each URL, and the message names its destination by
// id while the URL is read from the config at send time (url-target.ts). Such a kind states
// only what differs: its config, its sender and outbox, where its URL is, and what it sends.

/** The types of a URL kind (see DestinationShape): one target, message and sender for both. */
export interface UrlDestinationShape<
  Schema extends DestinationShape["schema"],
  Global extends { timeoutMs: number },
  Target extends { destination: string },
  Message extends { destination: string },
  Sender,
> {
  schema: Schema;
  global: Global;
  digestTarget: Target;
  alertTarget: Target;
  address: { destination: string };
  digestMessage: Message;
  alertMessage: Message;
  clients: { digest: Sender; alert: Sender };
}

/** Any URL kind's types: what the module below relies on. */
type AnyUrlShape = UrlDestinationShape<
  DestinationShape["schema"],
  { timeoutMs: number },
  { destination: string },
  { destination: string },
  unknown
>;

/** What one URL kind is made of: the rest of its module follows from these. */
export interface UrlDestinationParts<K extends string, T extends AnyUrlShape> {
  /** Its config part (`<kind>-config.ts`): no environment defaults, no shared credential. */
  config: DestinationConfigPart<K, Pick<T, ConfigShapeKey>>;
  /** The setting that holds a destination's URL, as an operator reads it: `webhook.url`. */
  urlField: string;
  /** The sender over HTTP, each attempt bounded by `timeoutMs`. */
  sender(options: { timeoutMs: number }): T["clients"]["digest"];
  /** `--outbox DIR`: a sender that writes files instead. */
  outbox(files: OutboxFiles): T["clients"]["digest"];
  /** The URL `check-config --online` asks, and what its answer means. */
  probe(target: T["digestTarget"]): { url: PostRequest["url"]; describe: DescribeFailure };
  /** What the kind sends for a digest, and for an alert evaluation, besides its destination's id. */
  renderDigest(input: DigestRenderInput): Omit<T["digestMessage"], "destination">;
  renderAlert(input: AlertRenderInput): Omit<T["alertMessage"], "destination">;
  /** What the kind sends for an incident or its resolution. */
  renderIncident(input: IncidentRenderInput): Omit<T["alertMessage"], "destination">;
  /** Sends a message to the destination as configured now. */
  send(
    sender: T["clients"]["digest"],
    target: T["digestTarget"],
    key: string,
    message: T["digestMessage"],
  ): Promise<void>;
}

/** The module of a URL kind, from what differs between them. */
export function urlDestination<K extends string, T extends AnyUrlShape>(
  parts: UrlDestinationParts<K, T>,
): DestinationModule<K, T> {
  const job = (
    key: string,
    message: T["digestMessage"],
    sender: T["clients"]["digest"],
    target: T["digestTarget"] | null,
    field: string,
  ) => ({
    id: message.destination,
    send: async () => {
      await parts.send(sender, targetOf(message, target, field, key), key, message);
      return {};
    },
  });
  return {
    ...parts.config,
    id: ({ destination }) => destination,
    clients: (global) => {
      const sender = parts.sender({ timeoutMs: global.timeoutMs });
      return { digest: sender, alert: sender, close: async () => {} };
    },
    probe: (target, global) => probeUrl(parts.probe(target), global.timeoutMs),
    outbox: (files) => {
      const outbox = parts.outbox(files);
      return { digest: outbox, alert: outbox };
    },
    renderDigest: ({ destination }, input) =>
      ({ destination, ...parts.renderDigest(input) }) as T["digestMessage"],
    renderAlert: ({ destination }, input) =>
      ({ destination, ...parts.renderAlert(input) }) as T["alertMessage"],
    renderIncident: ({ destination }, input) =>
      ({ destination, ...parts.renderIncident(input) }) as T["alertMessage"],
    digestJob: (key, message, sender, _deps, target) =>
      job(key, message, sender, target, `digest's ${parts.urlField}`),
    alertJob: (key, message, sender, _deps, target) =>
      job(key, message, sender, target, `alert's ${parts.urlField}`),
  };
}
