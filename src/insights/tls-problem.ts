// A TLS certificate the client will not accept. Unlike a reset or a timeout, waiting never
// fixes it: the message names what to change, and the request is not retried.

const SELF_SIGNED = new Set(["DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN"]);
const UNKNOWN_ISSUER = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
]);
const WRONG_NAME = new Set(["ERR_TLS_CERT_ALTNAME_INVALID", "HOSTNAME_MISMATCH"]);
const OUT_OF_DATE = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID"]);

const TRUST_FIX =
  "if it is your own (a company proxy's or an internal CA), give Node.js that CA certificate: NODE_EXTRA_CA_CERTS=/path/to/ca.pem";

/**
 * What is wrong with the certificate of `host`, and the fix, when `code` is a TLS
 * verification failure; null for any other code. `urlVariable` names where the host is set.
 */
export function tlsProblem(code: string, host: string, urlVariable: string): string | null {
  if (SELF_SIGNED.has(code)) {
    return `${host} presented a self-signed TLS certificate (${code}), which is not trusted — ${TRUST_FIX}; retrying will not help`;
  }
  if (UNKNOWN_ISSUER.has(code)) {
    return `the TLS certificate of ${host} is signed by a CA this machine does not know (${code}) — ${TRUST_FIX}; retrying will not help`;
  }
  if (WRONG_NAME.has(code)) {
    return `the TLS certificate of ${host} is not issued for that host name (${code}) — check the host in ${urlVariable}: use the name the certificate is for (your workspace's own host), not an alias or an IP address`;
  }
  if (OUT_OF_DATE.has(code)) {
    return `the TLS certificate of ${host} is ${code === "CERT_HAS_EXPIRED" ? "expired" : "not valid yet"} (${code}) — check this machine's clock, or ask whoever runs ${host} to renew the certificate`;
  }
  return null;
}
