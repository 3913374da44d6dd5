// The digests the /insights daemon tests ask for, and when: Tuesday 24 Nov 2026, 08:00 in
// Berlin, an hour before the daily fires. A digest asked for is its latest fire's slot: the
// weekly's Monday fire (past its catch-up, so the daemon leaves it) and the daily's of Monday.

export const ASKED_AT = new Date("2026-11-24T07:00:00.000Z");
export const FIRES_AT = new Date("2026-11-24T08:00:00.000Z");

/** Mondays at 09:00, for the week before: asked for on Tuesday at 08:00, it is Nov 16 – 22. */
export const WEEKLY = {
  name: "weekly",
  schedule: "0 9 * * 1",
  period: "previous_week",
  catch_up: "10m",
  slack: { channel: "C0123ABCD" },
};

/** Fires at 09:00 every day, elsewhere: the sign that the schedule's tick ran. */
export const DAILY = {
  name: "daily",
  schedule: "0 9 * * *",
  period: "previous_day",
  catch_up: "10m",
  slack: { channel: "C0ALERTS" },
};
