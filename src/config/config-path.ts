/** A config path as people read it: `teams[1].digests[0].schedule`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/**
 * Orders paths so that problems read grouped: a parent before its children, list items by
 * index (`teams[2]` before `teams[10]`), keys alphabetically.
 */
export function compareConfigPaths(a: string, b: string): number {
  const left = splitPath(a);
  const right = splitPath(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] as string | number;
    const y = right[i] as string | number;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return left.length - right.length;
}

function splitPath(path: string): (string | number)[] {
  if (path === "") return [];
  return path.split(/\.|(?=\[)/).map((s) => (/^\[\d+\]$/.test(s) ? Number(s.slice(1, -1)) : s));
}

// A name or id short and plain enough to show beside its position; anything else (a secret
// pasted in the wrong place, a long text) is left out.
const PLAIN_NAME = /^[A-Za-z0-9][\w.-]{0,39}$/;

/**
 * The path as people find it in their file: each team, digest, alert and project position
 * followed by its name, `teams[1] (payments).digests[0] (daily).schedule`. `raw` is the config
 * as read; a position whose item has no plain name stays bare.
 */
export function labelConfigPath(path: string, raw: unknown): string {
  let node = raw;
  let out = "";
  for (const segment of splitPath(path)) {
    node =
      typeof node === "object" && node !== null
        ? (node as Record<string | number, unknown>)[segment]
        : undefined;
    if (typeof segment === "number") {
      const item =
        typeof node === "object" && node !== null ? (node as Record<string, unknown>) : {};
      // A project is known by its id; its name is only for display.
      const name = typeof item.id === "string" ? item.id : item.name;
      out += `[${segment}]${typeof name === "string" && PLAIN_NAME.test(name) ? ` (${name})` : ""}`;
    } else {
      out += out === "" ? segment : `.${segment}`;
    }
  }
  return out;
}
