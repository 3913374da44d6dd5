import type { FakeSlack } from "../test/fake-slack/fake-slack-server.js";
import type { TestSmtpServer } from "../test/smtp/start-smtp-server.js";
import type { ExpectedSlot } from "./soak-plan.js";

// Counting what arrived, per slot key: top-level Slack posts by their metadata key, workbooks
// uploaded into a digest's thread, and mails by Message-ID (`<key@insights-reporter>`). A slot
// is right when each of its destinations saw it exactly once.

export interface Arrivals {
  /** Top-level posts: metadata key and ts, in the order they were accepted. */
  posts: readonly { key: string | null; ts: string }[];
  /** The thread each uploaded file was shared into. */
  uploadThreads: readonly (string | null)[];
  /** Message-IDs of the mails accepted. */
  messageIds: readonly (string | null | undefined)[];
  /** When the soak first saw a post of each key (epoch ms). */
  firstSeenAt: ReadonlyMap<string, number>;
}

export interface SlotCount {
  slot: ExpectedSlot;
  posts: number;
  uploads: number;
  mails: number;
  /** Seconds from the slot's fire to its post being seen; null when it never came. */
  lateS: number | null;
}

export interface SlotTally {
  counts: SlotCount[];
  /** Keys with a destination that saw nothing. */
  missing: string[];
  /** Keys with a destination that saw them more than once. */
  doubled: string[];
  /** Keys seen that no expected slot has. */
  unexpected: string[];
}

export interface ArrivalLog {
  /** What has arrived so far; notes when each post was first seen. */
  arrivals(): Arrivals;
  /** Top-level posts so far (thread replies left out). */
  posted(): number;
}

/** Reads arrivals off the fakes; call `arrivals()` often (every second) for lateness to the second. */
export function logArrivals(slack: FakeSlack, smtp: TestSmtpServer): ArrivalLog {
  const firstSeenAt = new Map<string, number>();
  const topLevel = () => slack.posts.filter((p) => p.thread_ts === null);
  return {
    arrivals() {
      const posts = topLevel().map((p) => {
        const key = p.metadata?.event_payload.key;
        return { key: typeof key === "string" ? key : null, ts: p.ts };
      });
      for (const { key } of posts) {
        if (key && !firstSeenAt.has(key)) firstSeenAt.set(key, Date.now());
      }
      return {
        posts,
        uploadThreads: slack.uploads.map((u) => u.thread_ts),
        messageIds: smtp.messages.map((m) => m.parsed.messageId),
        firstSeenAt,
      };
    },
    posted: () => topLevel().length,
  };
}

/** Counts arrivals per expected slot; a digest expects a post, an upload and a mail, an alert a post and a mail. */
export function tallySlots(expected: readonly ExpectedSlot[], arrivals: Arrivals): SlotTally {
  const posts = countBy(arrivals.posts.map((p) => p.key));
  const keyOfTs = new Map(arrivals.posts.map((p) => [p.ts, p.key]));
  const uploads = countBy(
    arrivals.uploadThreads.map((ts) => (ts ? (keyOfTs.get(ts) ?? null) : null)),
  );
  const mails = countBy(arrivals.messageIds.map(keyOfMessageId));
  const counts = expected.map((slot): SlotCount => {
    const seen = arrivals.firstSeenAt.get(slot.key);
    return {
      slot,
      posts: posts.get(slot.key) ?? 0,
      uploads: uploads.get(slot.key) ?? 0,
      mails: mails.get(slot.key) ?? 0,
      lateS: seen === undefined ? null : (seen - slot.fire.getTime()) / 1000,
    };
  });
  const wanted = (c: SlotCount) => [
    c.posts,
    c.mails,
    ...(c.slot.kind === "digest" ? [c.uploads] : []),
  ];
  const known = new Set(expected.map((s) => s.key));
  const seenKeys = new Set([...posts.keys(), ...uploads.keys(), ...mails.keys()]);
  return {
    counts,
    missing: counts.filter((c) => wanted(c).some((n) => n === 0)).map((c) => c.slot.key),
    doubled: counts.filter((c) => wanted(c).some((n) => n > 1)).map((c) => c.slot.key),
    unexpected: [...seenKeys].filter((key) => !known.has(key)),
  };
}

/** `<soak.at-1704.2026-11-22@insights-reporter>` → `soak.at-1704.2026-11-22`. */
export function keyOfMessageId(id: string | null | undefined): string | null {
  const match = /^<?([^@>]+)@insights-reporter>?$/.exec(id?.trim() ?? "");
  return match?.[1] ?? null;
}

/** Occurrences of each non-null value; a null (a post without metadata, say) counts as "(none)". */
function countBy(values: readonly (string | null)[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) {
    const key = value ?? "(none)";
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
