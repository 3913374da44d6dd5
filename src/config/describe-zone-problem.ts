import { IANAZone } from "luxon";
import { closestMatch } from "./closest-match.js";

/**
 * Why `zone` is not an IANA zone name we can pass to the API, or null when it is one. Intl
 * accepts any casing ("europe/berlin"), the API may not, so a wrong case is a problem too.
 */
export function describeZoneProblem(zone: string): string | null {
  const known = ["UTC", ...Intl.supportedValuesOf("timeZone")];
  const sameIgnoringCase = known.find((z) => z.toLowerCase() === zone.toLowerCase());
  if (IANAZone.isValidZone(zone) && (sameIgnoringCase === undefined || sameIgnoringCase === zone)) {
    return null;
  }
  const suggestion = sameIgnoringCase ?? closestMatch(zone, known);
  const fix = suggestion
    ? `did you mean "${suggestion}"?`
    : 'use an IANA name such as "Europe/Berlin" or "America/New_York"';
  return `${JSON.stringify(zone)} is not an IANA time zone — ${fix}`;
}
