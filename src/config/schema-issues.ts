import * as z from "zod";
import type { ConfigIssue } from "../errors.js";
import { closestMatch } from "./closest-match.js";
import { formatConfigPath } from "./config-path.js";

type ZodIssue = z.core.$ZodIssue;

/**
 * Turns zod's issues into config issues people can act on: each with its path, the allowed
 * values or the expected shape, and for an unknown key the closest known one. `raw` is the data
 * that was validated, used to tell a missing key from a wrong one and to quote short values.
 */
export function schemaIssues(
  issues: readonly ZodIssue[],
  schema: z.ZodType,
  raw: unknown,
): ConfigIssue[] {
  return issues.flatMap((issue): ConfigIssue[] => {
    if (issue.code === "unrecognized_keys") {
      const known = Object.keys(objectShape(schemaAt(schema, issue.path)) ?? {});
      return issue.keys.map((key) => ({
        path: formatConfigPath([...issue.path, key]),
        message: unknownKeyMessage(key, known),
      }));
    }
    const path = formatConfigPath(issue.path);
    const value = valueAt(raw, issue.path);
    return [{ path, message: describe(issue, value, schemaAt(schema, issue.path)) }];
  });
}

function describe(issue: ZodIssue, value: unknown, at: z.ZodType | undefined): string {
  switch (issue.code) {
    case "invalid_type":
      return invalidType(issue.expected, value, at);
    case "invalid_value": {
      const allowed = issue.values.map(String);
      const hint = typeof value === "string" ? closestMatch(value, allowed) : null;
      return `${quote(value)} is not allowed — use one of: ${allowed.join(", ")}${hint ? ` (did you mean "${hint}"?)` : ""}`;
    }
    case "invalid_format":
      return `${quote(value)} is not allowed — must be ${issue.message}`;
    case "too_small":
      return sizeMessage("at least", "greater than", issue.origin, issue.minimum, issue.inclusive);
    case "too_big":
      return sizeMessage("at most", "less than", issue.origin, issue.maximum, issue.inclusive);
    default:
      return issue.message;
  }
}

function invalidType(expected: string, value: unknown, at: z.ZodType | undefined): string {
  const description = at?.description;
  if (value === undefined) return `missing — add it${description ? ` (${description})` : ""}`;
  if (value === null && expected === "object") return "is empty — fill it in or remove the key";
  if (value === null && expected === "array") return "is empty — list at least one item";
  return `must be ${article(expected)}, not ${kindOf(value)}${hint(expected, value)}`;
}

/** The usual YAML slips: an id read as a number, one item written without brackets. */
function hint(expected: string, value: unknown): string {
  if (expected === "string" && (typeof value === "number" || typeof value === "boolean")) {
    return ` — put it in quotes: "${String(value)}"`;
  }
  if (expected === "array" && typeof value === "string") return ` — write [${value}]`;
  return "";
}

function sizeMessage(
  inclusiveWord: string,
  exclusiveWord: string,
  origin: string,
  limit: number | bigint,
  inclusive: boolean | undefined,
): string {
  const bound = `${inclusive === false ? exclusiveWord : inclusiveWord} ${limit}`;
  if (origin === "array") return `must list ${bound} item${limit === 1 ? "" : "s"}`;
  if (origin === "string")
    return limit === 1 && inclusiveWord === "at least"
      ? "must not be empty"
      : `must be ${bound} characters long`;
  return `must be ${bound}`;
}

function unknownKeyMessage(key: string, known: string[]): string {
  const suggestion = closestMatch(key, known);
  if (suggestion) return `unknown key — did you mean "${suggestion}"?`;
  return `unknown key — allowed here: ${known.join(", ")}`;
}

/** The schema that validates the value at `path`, looking through defaults and optionals. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = unwrap(schema);
  for (const segment of path) {
    if (!current) return undefined;
    if (current instanceof z.ZodArray && typeof segment === "number") {
      current = unwrap(current.element as z.ZodType);
    } else {
      const shape = objectShape(current);
      current = shape && typeof segment === "string" ? unwrap(shape[segment]) : undefined;
    }
  }
  return current;
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (
    current instanceof z.ZodDefault ||
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable
  ) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let current = raw;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function quote(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);
  return kindOf(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `text ${quote(value)}`;
  return `${typeof value} ${String(value)}`;
}

function article(expected: string): string {
  const words: Record<string, string> = {
    string: "text",
    number: "a number",
    boolean: "true or false",
    object: "a mapping (key: value lines)",
    array: "a list",
  };
  return words[expected] ?? expected;
}
