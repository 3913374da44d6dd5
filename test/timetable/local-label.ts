/**
 * "2026-03-29 03:00 GMT+02:00": an instant as a zone's clock shows it, with the offset, so a
 * table says which occurrence of a repeated hour it means. Built with Intl, not luxon, so it
 * checks the code under test rather than repeating it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

export function localLabel(instant: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "longOffset",
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  const offset = parts.timeZoneName === "GMT" ? "GMT+00:00" : parts.timeZoneName;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${offset}`;
}

export const labels = (fires: Date[], timeZone: string): string[] =>
  fires.map((fire) => localLabel(fire, timeZone));
