// What the soak schedules and what it expects to see. Digests and alerts cover whole local
// days, and a slot is named by the period it covers, so a `* * * * *` job fires every minute
// but is one slot a day: every fire after the first finds it delivered and must post nothing.
// To have a new slot every minute as well, each minute of the soak gets a daily digest and a
// daily alert of its own, scheduled at that minute ("MM HH * * *"): each is a new slot, a
// full run (insights through the faults, report, workbook, Slack, mail) and one post.

/** The team whose digests run; its alerts are another team's (see `soakConfig`). */
export const TEAM = "soak";
export const ALERT_TEAM = "soak-alerts";
export const EVERY_MINUTE = "every-minute";
export const DIGEST_CHANNEL = "C0123ABCD";
export const ALERT_CHANNEL = "C0ALERTS";
const MINUTE_MS = 60_000;

export type SlotKind = "digest" | "alert";

/** A slot the fakes should see exactly once: one post, one mail (and a digest, one upload). */
export interface ExpectedSlot {
  key: string;
  kind: SlotKind;
  /** The first fire that delivers it (lateness is measured from here). */
  fire: Date;
  /** "minute" for a job of its own minute, "every" for the `* * * * *` jobs. */
  job: "minute" | "every";
}

/** `minutes` consecutive minute starts, the first at least `leadMs` after `now`. */
export function planFires(now: Date, minutes: number, leadMs: number): Date[] {
  const first = Math.ceil((now.getTime() + leadMs) / MINUTE_MS) * MINUTE_MS;
  return Array.from({ length: minutes }, (_, i) => new Date(first + i * MINUTE_MS));
}

/** Every minute start in [from, to]: the fires of a `* * * * *` job over that span. */
export function minuteStarts(from: Date, to: Date): Date[] {
  const fires: Date[] = [];
  for (let at = Math.floor(from.getTime() / MINUTE_MS) * MINUTE_MS; at <= to.getTime(); ) {
    fires.push(new Date(at));
    at += MINUTE_MS;
  }
  return fires;
}

/** `at-1704`: the name of the digest and of the alert that fire at 17:04 UTC. */
export function minuteJobName(fire: Date): string {
  return `at-${fire.toISOString().slice(11, 16).replace(":", "")}`;
}

export interface SoakConfigInput {
  fires: readonly Date[];
  projects: readonly string[];
  ledgerPath: string;
}

/**
 * A `* * * * *` digest and alert, plus a daily digest and alert at each fire, in UTC. Digests
 * post to Slack with the workbook in their thread and mail it too; alerts (flaky rate,
 * thresholds every project breaches) post and mail when they fire, which a fresh alert does
 * on its first evaluation, and then stay firing. A digest lists its team's firing alerts (and
 * its workbook their evaluations), so with the alerts in the same team each digest would be
 * bigger than the last; the alerts are a second team's, over the same projects, to keep the
 * work of every minute the same. The API timeout is short so that a "slow" fault is a timeout.
 */
export function soakConfig(input: SoakConfigInput): Record<string, unknown> {
  const schedules = [
    { name: EVERY_MINUTE, schedule: "* * * * *" },
    ...input.fires.map((fire) => ({
      name: minuteJobName(fire),
      schedule: `${fire.getUTCMinutes()} ${fire.getUTCHours()} * * *`,
    })),
  ];
  return {
    api: { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}", timeout: "5s" },
    email: { from: "Soak insights <insights@example.com>" },
    state: { path: input.ledgerPath },
    server: { host: "127.0.0.1", port: 0 },
    teams: [
      {
        name: TEAM,
        timezone: "Etc/UTC",
        projects: input.projects.map((id) => ({ id })),
        digests: schedules.map(({ name, schedule }) => ({
          name,
          schedule,
          period: "previous_day",
          catch_up: "10m",
          slack: { channel: DIGEST_CHANNEL, attach_xlsx: true },
          email: { to: ["qa@example.com"], attach_xlsx: true },
        })),
      },
      {
        name: ALERT_TEAM,
        timezone: "Etc/UTC",
        projects: input.projects.map((id) => ({ id })),
        alerts: schedules.map(({ name, schedule }) => ({
          name,
          metric: "flaky_rate",
          window: "previous_day",
          schedule,
          warn_at: 0.1,
          critical_at: 0.2,
          clear_at: 0.05,
          min_tests: 0,
          confidence: "off",
          scope: "both",
          catch_up: "10m",
          slack: { channel: ALERT_CHANNEL },
          email: { to: ["oncall@example.com"] },
        })),
      },
    ],
  };
}

/**
 * The slots the soak should deliver: each fire's digest and alert, and the slots of the
 * `* * * * *` jobs over `everyMinuteFires` (one per UTC day they span). Keys are built here
 * from the documented format (`team.job.period`, `team.alert.job.period`), not by the daemon's
 * code, so a key the daemon names differently shows up as missing and unexpected.
 */
export function expectedSlots(
  fires: readonly Date[],
  everyMinuteFires: readonly Date[],
): ExpectedSlot[] {
  const slots: ExpectedSlot[] = [];
  const add = (name: string, fire: Date, job: ExpectedSlot["job"]) => {
    const day = previousUtcDay(fire);
    for (const kind of ["digest", "alert"] as const) {
      const key =
        kind === "digest" ? `${TEAM}.${name}.${day}` : `${ALERT_TEAM}.alert.${name}.${day}`;
      if (!slots.some((s) => s.key === key)) slots.push({ key, kind, fire, job });
    }
  };
  for (const fire of everyMinuteFires) add(EVERY_MINUTE, fire, "every");
  for (const fire of fires) add(minuteJobName(fire), fire, "minute");
  return slots;
}

function previousUtcDay(fire: Date): string {
  return new Date(fire.getTime() - 24 * 60 * MINUTE_MS).toISOString().slice(0, 10);
}
