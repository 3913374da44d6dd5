// Which config fields hold secrets is declared once, on the schema field itself (`secretText`,
// `headerSecret`, in ../secret-text.ts), and every list of secret paths is read off the composed schema: a field a
// destination module adds is redacted and checked without anyone editing a list.
import * as z from "zod";
import type { Secret } from "../secret.js";
import { secretMarks } from "../secret-text.js";

/** A secret field of the config, by its path as written (snake_case, `[]` for every item). */
export interface SecretPath {
  /** `email.smtp_url`, `teams[].…`: as in config messages, `[]` standing for any index. */
  path: string;
  /** The same field in the ResolvedConfig: `email.smtpUrl`. */
  resolved: string;
  header: boolean;
}

/** Every secret field of `schema`, found by walking it. */
export function secretPathsOf(schema: z.ZodType): SecretPath[] {
  const found: SecretPath[] = [];
  const walk = (node: z.ZodType, path: string[]): void => {
    const mark = secretMarks.get(node);
    if (mark) {
      const resolved = path.map((part) =>
        part.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
      );
      found.push({ path: joinPath(path), resolved: joinPath(resolved), header: mark.header });
      return;
    }
    for (const [segment, child] of childrenOf(node))
      walk(child, segment ? [...path, segment] : path);
  };
  walk(schema, []);
  return found;
}

/** The values at `paths` of a config as read (snake_case, before the schema), as text. */
export function secretValuesAt(raw: unknown, paths: readonly SecretPath[]): string[] {
  return paths.flatMap(({ path }) => valuesAt(raw, path.split(".")));
}

/** The revealed values of a resolved config's secrets, to scrub from messages. */
export function resolvedSecretValues(config: unknown, paths: readonly SecretPath[]): string[] {
  return paths.flatMap(({ resolved }) =>
    valuesAt(config, resolved.split("."), (value) =>
      typeof (value as Secret | null)?.reveal === "function"
        ? (value as Secret).reveal()
        : undefined,
    ),
  );
}

/** The text forms a secret travels in (kept beside `redactSecrets`, for the layers below config). */
export { secretForms } from "../secret.js";

/** Paths for pino's `redact`: each secret of the resolved config, at the top and one level down. */
export function logRedactPaths(paths: readonly SecretPath[]): string[] {
  const pino = paths.map(({ resolved }) => resolved.replace(/\[\]/g, "[*]"));
  return [...pino, ...pino.map((path) => `*.${path}`)];
}

function childrenOf(node: z.ZodType): [string, z.ZodType][] {
  if (node instanceof z.ZodObject) {
    return Object.entries(node.shape as Record<string, z.ZodType>);
  }
  if (node instanceof z.ZodArray) return [["[]", node.element as z.ZodType]];
  if (
    node instanceof z.ZodOptional ||
    node instanceof z.ZodNullable ||
    node instanceof z.ZodDefault ||
    node instanceof z.ZodPrefault ||
    node instanceof z.ZodReadonly ||
    node instanceof z.ZodCatch ||
    node instanceof z.ZodNonOptional
  ) {
    return [["", node.unwrap() as z.ZodType]];
  }
  if (node instanceof z.ZodPipe) return [["", node.in as z.ZodType]];
  if (node instanceof z.ZodUnion) {
    return (node.options as z.ZodType[]).map((option) => ["", option] as [string, z.ZodType]);
  }
  return [];
}

function joinPath(parts: string[]): string {
  return parts.join(".").replace(/\.\[\]/g, "[]");
}

function valuesAt(
  node: unknown,
  segments: string[],
  read: (value: unknown) => string | undefined = (value) =>
    typeof value === "string" ? value : undefined,
): string[] {
  const [head, ...rest] = segments;
  if (head === undefined) {
    const value = read(node);
    return value === undefined ? [] : [value];
  }
  if (typeof node !== "object" || node === null) return [];
  const key = head.endsWith("[]") ? head.slice(0, -2) : head;
  const child = (node as Record<string, unknown>)[key];
  if (!head.endsWith("[]")) return valuesAt(child, rest, read);
  return Array.isArray(child) ? child.flatMap((item) => valuesAt(item, rest, read)) : [];
}
