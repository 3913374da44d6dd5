// The digests the /insights daemon tests ask for, and when: Tuesday 24 Nov 2026, 08:00 in
// Berlin, an hour before both fire.

export const ASKED_AT = new Date("2026-11-24T07:00:00.000Z");
export const FIRES_AT = new Date("2026-11-24T08:00:00.000Z");

/** Tuesdays at 09:00, for the week before: asked for on Tuesday at 08:00. */
export const WEEKLY = {
  name: "weekly",
  schedule: "0 9 * * 2",
  period: "previous_week",
  catch_up: "10m",
  slack: { channel: "C0123ABCD" },
};

/** Fires at the same instant as the weekly one, elsewhere: the sign that the schedule's tick ran. */
export const DAILY = {
  name: "daily",
  schedule: "0 9 * * *",
  period: "previous_day",
  catch_up: "10m",
  slack: { channel: "C0ALERTS" },
};
