// What the ledger keeps as JSON — an alert evaluation's results and the notification it decided
// on — is a wire format between versions of insights-reporter: replicas of different versions
// share a PostgreSQL ledger during a rolling upgrade, and a retry reads what an older process
// wrote. So each document is written with its format version and read back through this
// schema, never with a cast; a version this build does not know is refused by name.
import * as z from "zod";
import { LedgerError } from "../errors.js";
import type { AlertNotification } from "../messages.js";

/** The format this build writes, and the newest it reads. */
export const STORED_JSON_VERSION = 1;

/** pending: breaching, not yet for long enough; no_data: no verdict (see `alerts/`). */
export const ALERT_LEVELS = ["ok", "pending", "warn", "critical", "no_data"] as const;

export type AlertLevel = (typeof ALERT_LEVELS)[number];

const storedResult = z.object({
  scope: z.string(),
  name: z.string(),
  value: z.number().nullable(),
  size: z.number(),
  verdict: z.string(),
  state: z.enum(ALERT_LEVELS),
  transition: z.string().nullable(),
});

/** One scope's outcome of an evaluation, as recorded (the workbook's Alerts sheet reads it). */
export type StoredAlertResult = z.infer<typeof storedResult>;

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const slackMessage = z.object({
  text: z.string(),
  blocks: z.array(z.looseObject({ type: z.string() })),
});
const alertNotification = z.object({
  slack: z
    .object({
      channel: z.string(),
      post: z.object({
        main: slackMessage,
        metadata: z.object({
          event_type: z.enum(["insights_digest", "insights_alert"]),
          event_payload: z
            .object({ key: z.string() })
            .catchall(
              z.union([
                scalar,
                z.record(z.string(), scalar),
                z.array(z.record(z.string(), scalar)),
              ]),
            ),
        }),
        thread: z.array(slackMessage),
      }),
      threadKey: z.string().nullable(),
      broadcast: z.boolean().optional(),
      updates: z.array(z.object({ rootKey: z.string(), message: slackMessage })),
      links: z.array(z.object({ rootKey: z.string(), text: z.string() })).optional(),
    })
    .nullable(),
  email: z
    .object({
      to: z.array(z.string()),
      // Absent in rows written before owners were copied, or before charts were drawn at send.
      cc: z.array(z.string()).optional(),
      subject: z.string(),
      html: z.string(),
      text: z.string(),
      threadKey: z.string().nullable().optional(),
      regressedFrom: z.array(z.string()).optional(),
      chartsAt: z.object({ html: z.number().int(), text: z.number().int() }).optional(),
    })
    .nullable(),
  // Absent in rows written before Teams and webhooks: nothing to send there.
  msteams: z
    .object({
      destination: z.string(),
      card: z.object({
        type: z.literal("message"),
        attachments: z.tuple([
          z.object({
            contentType: z.literal("application/vnd.microsoft.card.adaptive"),
            contentUrl: z.null(),
            content: z.looseObject({
              type: z.literal("AdaptiveCard"),
              $schema: z.string(),
              version: z.literal("1.5"),
              body: z.array(z.looseObject({ type: z.string() })),
              actions: z.array(z.looseObject({ type: z.string() })).optional(),
              fallbackText: z.string(),
              msteams: z.object({ width: z.literal("Full") }).optional(),
            }),
          }),
        ]),
      }),
    })
    .nullable()
    .default(null),
  webhook: z.object({ destination: z.string(), body: z.string() }).nullable().default(null),
  // Absent in rows written before PagerDuty: nothing to send there.
  pagerduty: z
    .object({
      destination: z.string(),
      events: z.array(
        z.object({
          action: z.enum(["trigger", "acknowledge", "resolve"]),
          dedupKey: z.string(),
          payload: z
            .object({
              summary: z.string(),
              severity: z.enum(["warning", "critical"]),
              source: z.string(),
              group: z.string(),
              class: z.string(),
              customDetails: z.record(z.string(), z.unknown()),
            })
            .optional(),
          links: z.array(z.object({ href: z.string(), text: z.string() })),
        }),
      ),
    })
    .nullable()
    .default(null),
}) satisfies z.ZodType<AlertNotification>;

// Rows written before the format had a version hold the document bare (an array of results, a
// notification object): they read as version 1.
const envelope = z.object({ version: z.number().int().positive(), data: z.unknown() });

/** The results column's text. */
export function encodeResults(results: readonly StoredAlertResult[]): string {
  return JSON.stringify({ version: STORED_JSON_VERSION, data: results });
}

/** The notification column's text, or null when nothing is sent. */
export function encodeNotification(notification: AlertNotification | null): string | null {
  return notification === null
    ? null
    : JSON.stringify({ version: STORED_JSON_VERSION, data: notification });
}

/** The results of the evaluation `key`, checked; throws LedgerError on a format it cannot read. */
export function decodeResults(text: string, key: string): StoredAlertResult[] {
  return decode(text, z.array(storedResult), { key, column: "results" });
}

/** The notification of the evaluation `key`, checked; throws LedgerError on a format it cannot read. */
export function decodeNotification(text: string | null, key: string): AlertNotification | null {
  return text === null ? null : decode(text, alertNotification, { key, column: "notification" });
}

function decode<T>(text: string, schema: z.ZodType<T>, where: { key: string; column: string }): T {
  const what = `the stored ${where.column} of the alert evaluation ${where.key}`;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw unreadable(what, "not JSON", where);
  }
  const wrapped = envelope.safeParse(raw);
  const { version, data } = wrapped.success ? wrapped.data : { version: 1, data: raw };
  if (version > STORED_JSON_VERSION) {
    throw new LedgerError(
      `${what} was written in format version ${version} by a newer insights-reporter (this one reads up to version ${STORED_JSON_VERSION}) — upgrade every replica that shares this ledger to the same version`,
      { ...where, version, known: STORED_JSON_VERSION },
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const at = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
    throw unreadable(what, `${issue?.message ?? "invalid"}${at}`, where);
  }
  return parsed.data;
}

function unreadable(what: string, reason: string, where: Record<string, unknown>): LedgerError {
  return new LedgerError(
    `${what} does not match its format (${reason}) — was the row edited by hand? Restore the ledger from a backup`,
    where,
  );
}
