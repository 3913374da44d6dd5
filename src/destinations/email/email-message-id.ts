/**
 * `<checkout.daily.2026-11-15@insights-reporter>`: the same for every attempt of a delivery key,
 * so a resend after a crash is recognised by clients that de-duplicate on Message-ID.
 */
export function messageIdForKey(key: string): string {
  // The left part must be an RFC 5322 dot-atom; keys are [a-z0-9.-] already, this keeps it so.
  const local = key
    .replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^\.|\.$/g, "");
  return `<${local || "digest"}@insights-reporter>`;
}
