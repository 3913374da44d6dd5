// Apart from postgres-ledger.ts, so that naming the configured database (check-config) does not
// load the PostgreSQL driver.

/** The URL without its password, for messages and logs. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    parsed.search = "";
    return parsed.toString();
  } catch {
    return "the database in state.url (not a valid URL)";
  }
}
