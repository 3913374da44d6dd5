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
