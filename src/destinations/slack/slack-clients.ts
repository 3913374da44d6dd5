import type { DeliveryProgress } from "../../deliver/types.js";
import type { Attachment, SlackMessage, SlackPost } from "../../messages.js";

// What a digest's and an alert's deliveries need from Slack. The real adapter (the Web API) and
// the outbox (files instead of sending) implement these, so the pipeline never knows which.

export interface SlackPosted {
  channel: string;
  ts: string;
}

export interface SlackDestination {
  /**
   * Posts the message and its thread replies, and uploads `file` and then each of `charts`
   * into the thread; with `progress`, skips the parts already done and records each one it does.
   */
  post(
    channel: string,
    post: SlackPost,
    file?: Attachment,
    progress?: DeliveryProgress,
    charts?: readonly Attachment[],
  ): Promise<SlackPosted>;
  /**
   * An earlier post of this key in the channel since `since` (crash recovery), or null. With
   * `thread`, a reply of this key in that thread; in the channel when the thread is gone.
   */
  findPosted(
    channel: string,
    key: string,
    since: Date,
    signal?: AbortSignal,
    thread?: string,
    /** Shared by the run's slots: the channel's history is read once, for all of them. */
    reads?: Map<string, unknown>,
  ): Promise<SlackPosted | null>;
}

/** Where an alert's message went: a new post, or a reply in the fire's thread. */
export interface SlackAlertPosted extends SlackPosted {
  /** False when it went out as a new post (no thread, or the thread's first message is gone). */
  threaded: boolean;
}

/** Alert messages in Slack: a fire is a new post, later changes reply in its thread and edit it. */
export interface SlackAlertDestination {
  /** A reply in the thread of `threadTs`, or a new post when null or the thread is gone. */
  /** `broadcast`: a reply also shown in the channel (`reply_broadcast`), for an escalation. */
  /** `signal`: the attempt's deadline (`DeliveryProgress.signal`), which aborts the request in flight. */
  postAlert(
    channel: string,
    post: SlackPost,
    threadTs: string | null,
    options?: { broadcast?: boolean; signal?: AbortSignal },
  ): Promise<SlackAlertPosted>;
  /**
   * Edits a fire's first message to show its state now; false when that message is gone.
   * `names` say which evaluation edits which fire (the outbox names its file after them);
   * `signal`, as for `postAlert`.
   */
  updateAlert(
    channel: string,
    ts: string,
    message: SlackMessage,
    names: { key: string; rootKey: string },
    signal?: AbortSignal,
  ): Promise<boolean>;
  /** Uploads a file into the thread of `ts` (a fire's chart); `signal`, as for `postAlert`. */
  uploadToThread(
    channel: string,
    ts: string,
    file: Attachment,
    signal?: AbortSignal,
  ): Promise<void>;
  /**
   * The names of the files we uploaded that the thread of `ts` already shares (after a crash,
   * an upload Slack took before it was recorded); none without the history scope.
   */
  filesInThread(channel: string, ts: string, signal?: AbortSignal): Promise<Set<string>>;
  /** The link to the message `ts` (chat.getPermalink); null where there is none (an outbox). */
  permalink(channel: string, ts: string, signal?: AbortSignal): Promise<string | null>;
  /**
   * An earlier alert message of this key (crash recovery): a fire in the channel, or with
   * `thread` a reply in the fire's thread; found as a digest's post is (`SlackDestination.findPosted`).
   */
  findPosted: SlackDestination["findPosted"];
}
