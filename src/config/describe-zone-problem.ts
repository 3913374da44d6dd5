import { IANAZone } from "luxon";
import { closestMatch } from "./closest-match.js";

/** The runtime's zone names by their lower-case spelling. */
const KNOWN_ZONES = new Map(
  ["UTC", ...Intl.supportedValuesOf("timeZone")].map((name) => [name.toLowerCase(), name]),
);

/**
 * Why `zone` is not an IANA zone name we can pass to the API, or null when it is one. Intl
 * accepts any casing ("europe/berlin"), the API may not, so a wrong case is a problem too.
 */
export function describeZoneProblem(zone: string): string | null {
  const sameIgnoringCase = KNOWN_ZONES.get(zone.toLowerCase());
  // IANAZone.create remembers a zone and its validity; a config of hundreds of teams in a
  // handful of zones checks each zone once.
  if (
    IANAZone.create(zone).isValid &&
    (sameIgnoringCase === undefined || sameIgnoringCase === zone)
  ) {
    return null;
  }
  const suggestion = sameIgnoringCase ?? closestMatch(zone, [...KNOWN_ZONES.values()]);
  const fix = suggestion
    ? `did you mean "${suggestion}"?`
    : 'use an IANA name such as "Europe/Berlin" or "America/New_York"';
  return `${JSON.stringify(zone)} is not an IANA time zone — ${fix}`;
}
