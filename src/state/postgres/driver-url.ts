// pg 8 reads sslmode=prefer, require and verify-ca as verify-full (TLS, with the certificate
// checked against the host name), and says so in a multi-line SECURITY WARNING on stderr the
// first time it parses one, before any error of ours: a CLI error would no longer be one line.
// We hand pg the mode it would use anyway, so it has nothing to warn about. Messages still
// quote the mode the user wrote, from their own URL.

const ALIASES_OF_VERIFY_FULL = /([?&]sslmode=)(prefer|require|verify-ca)(?=[&#]|$)/;

/**
 * `url` as pg is given it: sslmode prefer, require and verify-ca spelled verify-full, what pg 8
 * makes of them. With `uselibpqcompat=true` (libpq's weaker meanings, asked for) it is left as is.
 */
export function driverUrl(url: string): string {
  if (/[?&]uselibpqcompat=true(?=[&#]|$)/.test(url)) return url;
  return url.replace(ALIASES_OF_VERIFY_FULL, "$1verify-full");
}
