import type { DeliveryJob } from "../../deliver/deliver-all.js";
import type { DeliveryProgress } from "../../deliver/types.js";
import { SlackDeliveryError } from "../../errors.js";
import type { AlertNotification, Attachment, SlackMessage } from "../../messages.js";
import type { Chart } from "../../render/charts/trend-chart.js";
import type { AlertJobDeps } from "../destination-module.js";
import { opensFire } from "../fire-images.js";
import { type FireLink, withFireLinks } from "./messages/slack-fire-links.js";
import type { SlackAlertDestination } from "./slack-clients.js";
import { slackDestinationId } from "./slack-id.js";

// How an alert's recorded notification is sent to Slack: the fires' first messages are
// edited first (a fire whose message is gone then gets this one as a new post, not a reply to
// nothing), then the message goes out.

/** An alert's notification as rendered for Slack. */
export type SlackAlertMessage = NonNullable<AlertNotification["slack"]>;

/** The Slack delivery job of an alert's notification: edits, then the post. */
export function slackAlertJob(
  key: string,
  slack: SlackAlertMessage,
  slackOut: SlackAlertDestination,
  deps: AlertJobDeps,
): DeliveryJob {
  const tsOf = (rootKey: string) => deps.threadTs(rootKey, slack.channel);

  /**
   * A fire's charts into its post's thread, each a part recorded once it is up, so neither a
   * retry nor a recovery after a kill uploads one twice. A failed upload fails the delivery,
   * which is retried: the retry finds the post by its key and uploads only what is missing.
   * `lookFirst` (a recovery): a chart Slack took before the kill let it be recorded is in the
   * thread already; it is recorded as done, not uploaded again. The charts are drawn for this
   * attempt (`images`), and only for a post that opens the fire: a reply in its thread, or a
   * post that took the place of a deleted first message, carries none.
   */
  async function uploadCharts(
    ts: string,
    progress: DeliveryProgress,
    lookFirst = false,
  ): Promise<void> {
    if (!deps.images || !opensFire(slack)) return;
    const uploads = slackFiles(await deps.images.fireCharts());
    if (uploads.length === 0) return;
    await progress.record("post", ts);
    const partOf = (file: Attachment) => `upload ${file.filename}`;
    const pending = uploads.filter((file) => !progress.done.has(partOf(file)));
    if (pending.length === 0) return;
    if (lookFirst) {
      const shared = await postedUnless("lookup of the thread's files", () =>
        slackOut.filesInThread(slack.channel, ts, progress.signal),
      );
      for (const file of pending) {
        if (shared.has(file.filename)) await progress.record(partOf(file), null);
      }
    }
    for (const file of pending) {
      if (progress.done.has(partOf(file))) continue;
      await postedUnless(`upload of ${file.filename}`, () =>
        slackOut.uploadToThread(slack.channel, ts, file, progress.signal),
      );
      await progress.record(partOf(file), null);
    }

    /** A step after the post: its failure says the alert was posted (ts) and what is missing. */
    async function postedUnless<T>(step: string, run: () => Promise<T>): Promise<T> {
      try {
        return await run();
      } catch (error) {
        progress.signal?.throwIfAborted();
        throw new SlackDeliveryError(
          `the alert was posted (ts ${ts}), but the ${step} failed: ${String(error instanceof Error ? error.message : error)}; still missing: ${pending
            .filter((file) => !progress.done.has(partOf(file)))
            .map((file) => `upload of ${file.filename}`)
            .join(", ")}`,
          error instanceof SlackDeliveryError ? error.slackError : null,
          { channel: slack.channel, ts, posted: true, failedStep: step },
        );
      }
    }
  }
  /** The post with each earlier fire it names linked to its first message, where Slack gives a permalink. */
  async function linked(message: SlackMessage, signal?: AbortSignal): Promise<SlackMessage> {
    const urls: (FireLink & { url: string })[] = [];
    for (const link of slack.links ?? []) {
      const ts = await tsOf(link.rootKey);
      if (!ts) continue;
      try {
        const url = await slackOut.permalink(slack.channel, ts, signal);
        if (url) urls.push({ ...link, url });
      } catch (error) {
        signal?.throwIfAborted();
        // A link is a convenience: the words name the earlier fire all the same.
        deps.logger.warn(
          { slot: key, root: link.rootKey, err: String(error) },
          "no permalink for the earlier fire; its words stay unlinked",
        );
      }
    }
    return withFireLinks(message, urls);
  }

  return {
    id: slackDestinationId(slack.channel),
    // The attempt's signal goes with every call: at send_timeout the request in flight is cut.
    send: async (progress) => {
      const { signal } = progress;
      let thread = slack.threadKey ? await tsOf(slack.threadKey) : null;
      // Edits first: a fire whose first message is gone gets this message as a new post.
      for (const update of slack.updates) {
        const ts = await tsOf(update.rootKey);
        if (!ts) continue;
        try {
          const names = { key, rootKey: update.rootKey };
          const found = await slackOut.updateAlert(
            slack.channel,
            ts,
            update.message,
            names,
            signal,
          );
          if (!found && update.rootKey === slack.threadKey) thread = null;
        } catch (error) {
          signal?.throwIfAborted(); // abandoned at the deadline: no post after it
          // The news is the message below; a failed edit must not hold it back.
          deps.logger.warn(
            { slot: key, root: update.rootKey, err: String(error) },
            "could not edit the alert's first message",
          );
        }
      }
      const post = { ...slack.post, main: await linked(slack.post.main, signal) };
      const posted = await slackOut.postAlert(slack.channel, post, thread, {
        broadcast: slack.broadcast === true,
        signal,
      });
      // The fire's first message was deleted: this post takes its place from now on, or every
      // later edit would go to the deleted one and this one would stay as it is.
      if (!posted.threaded && slack.threadKey) {
        await deps.moveThread?.(slack.threadKey, slack.channel, posted.ts);
      }
      if (!posted.threaded) await uploadCharts(posted.ts, progress);
      return { ref: posted.ts };
    },
    // After a crash mid-post, or an attempt abandoned at send_timeout: the message is found by
    // its key, a fire in the channel, a reply or an escalation in the fire's thread. Being
    // searchable, every one of them is also capped at send_timeout (deliverAll).
    recover: async (progress) => {
      const thread = slack.threadKey ? await tsOf(slack.threadKey) : null;
      const found = await slackOut.findPosted(
        slack.channel,
        key,
        deps.since,
        progress.signal,
        thread ?? undefined,
        deps.reads,
      );
      // The fire's charts the interrupted attempt did not get to upload.
      if (found && thread === null) await uploadCharts(found.ts, progress, true);
      return found ? { ref: found.ts } : null;
    },
  };
}

/** A fire's charts as the files uploaded into its thread. */
function slackFiles(charts: readonly Chart[]): Attachment[] {
  return charts.map((c) => ({
    filename: `${c.name}.png`,
    content: c.png,
    contentType: "image/png",
  }));
}
