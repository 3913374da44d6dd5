/**
 * The key that names a slot: team, job and the period it covers. It is built from the period,
 * not the fire time, so two fires covering the same period are the same slot (and deliver
 * once). The same string names the outbox file, the ledger row and the Slack metadata.
 */
export function slotKey(team: string, job: string, period: { start: string; end: string }): string {
  const span = period.start === period.end ? period.start : `${period.start}_${period.end}`;
  return `${team}.${job}.${span}`;
}
