// What the TLS settings of state.url (sslmode, sslrootcert, sslcert, sslkey) get wrong, in words
// that name the fix. Neither is a passing outage: waiting for the server never helps.

const FILE_PARAMETERS = ["sslrootcert", "sslcert", "sslkey"] as const;

/**
 * The message for a TLS setting of `url` that cannot work — a file it names that cannot be
 * read, TLS asked of a server that offers none — or null for any other error.
 */
export function postgresTlsProblem(location: string, url: string, error: unknown): string | null {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  const reason = error instanceof Error ? error.message : String(error);
  const parameters = urlParameters(url);
  // The driver reads the files the URL names while it connects; a read error carries the path.
  if (typeof code === "string" && typeof path === "string") {
    const parameter = FILE_PARAMETERS.find((name) => parameters.get(name) === path);
    if (parameter) {
      const what = parameter === "sslrootcert" ? "the CA certificate (PEM)" : "that file";
      return `cannot read ${parameter} ${path} named in state.url (${code}) — point ${parameter} at ${what}, readable by this user, or leave it out of state.url (DATABASE_URL)`;
    }
  }
  if (/does not support SSL/i.test(reason)) {
    const mode = parameters.get("sslmode");
    return `the ledger database ${location} does not offer TLS, which state.url asks for${mode ? ` (sslmode=${mode})` : ""} — turn on ssl in PostgreSQL (ssl = on, with a certificate), or set sslmode=disable in state.url (DATABASE_URL) where the network is trusted`;
  }
  return null;
}

function urlParameters(url: string): URLSearchParams {
  try {
    return new URL(url).searchParams;
  } catch {
    return new URLSearchParams();
  }
}
