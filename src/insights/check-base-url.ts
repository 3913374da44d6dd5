import { BaseUrlError } from "../errors.js";

const API_PREFIX = "/api/external/v1";
const PLACEHOLDER_LABELS = new Set(["subdomain", "workspace", "example", "your", "yourworkspace"]);
const FIX = "put your workspace's own subdomain in INSIGHTS_API_URL";

/**
 * Checks INSIGHTS_API_URL before any request and returns it normalised (no trailing slash).
 * Throws BaseUrlError naming the fix: the `/api/external/v1` suffix, https unless loopback,
 * the workspace's own subdomain rather than a placeholder, and no credentials in the URL.
 */
export function checkBaseUrl(url: string): string {
  const raw = url.trim();
  // `<`, `>` and `%xx` make URL parsing fail or decode silently, so look at the raw text first.
  if (/[{}<>]|%7b|%7d|%3c|%3e/i.test(hostPart(raw))) {
    throw new BaseUrlError(`INSIGHTS_API_URL still has a placeholder subdomain — ${FIX}`, {
      url: describe(raw),
    });
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new BaseUrlError(
      `INSIGHTS_API_URL is not a URL — set it to https://<your-workspace>.<host>${API_PREFIX}`,
      { url: describe(raw) },
    );
  }
  const shown = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  if (parsed.username !== "" || parsed.password !== "") {
    throw new BaseUrlError(
      "INSIGHTS_API_URL must not carry credentials — remove the user:password@ part and put the key in INSIGHTS_API_KEY",
      { url: shown },
    );
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    throw new BaseUrlError(
      `INSIGHTS_API_URL must not have a query or fragment — it ends with ${API_PREFIX}`,
      { url: shown },
    );
  }
  const loopback = isLoopback(parsed.hostname);
  if (parsed.protocol !== "https:" && !(loopback && parsed.protocol === "http:")) {
    throw new BaseUrlError(
      `INSIGHTS_API_URL must use https:// (plain http is allowed only for 127.0.0.1, ::1 or localhost) — got ${parsed.protocol}//`,
      { url: shown },
    );
  }
  if (!loopback && isPlaceholder(parsed.hostname)) {
    throw new BaseUrlError(
      `INSIGHTS_API_URL host "${parsed.hostname}" looks like a placeholder — ${FIX}`,
      { url: shown },
    );
  }
  const path = parsed.pathname.replace(/\/+$/, "");
  if (!path.endsWith(API_PREFIX)) {
    throw new BaseUrlError(
      `INSIGHTS_API_URL must end with ${API_PREFIX} (e.g. https://acme.<host>${API_PREFIX}) — got path "${parsed.pathname}"`,
      { url: shown },
    );
  }
  return `${parsed.protocol}//${parsed.host}${path}`;
}

/** The authority of a URL-ish string, without any user:password@ part. */
function hostPart(raw: string): string {
  const afterScheme = raw.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  const authority = afterScheme.split(/[/?#]/, 1)[0] ?? "";
  return authority.slice(authority.lastIndexOf("@") + 1);
}

/** A string safe to show: scheme, host and path only (credentials, query and fragment dropped). */
function describe(raw: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(raw)?.[0] ?? "";
  const rest = raw.slice(scheme.length).split(/[?#]/, 1)[0] ?? "";
  const slash = rest.indexOf("/");
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash);
  return `${scheme}${authority.slice(authority.lastIndexOf("@") + 1)}${path}`;
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

function isPlaceholder(hostname: string): boolean {
  const label = hostname.split(".", 1)[0]?.toLowerCase() ?? "";
  return PLACEHOLDER_LABELS.has(label) || /^your[-_]/.test(label);
}
