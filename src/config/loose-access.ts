// Safe readers over config data that has not passed the schema yet. Cross-field rules use them
// so that every problem is reported in one go, even when other parts of the file are malformed.

export type Loose = Record<string, unknown>;

export function isRecord(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value as an object, or an empty one. */
export function asRecord(value: unknown): Loose {
  return isRecord(value) ? value : {};
}

/** The value as a list of objects with their indexes; other items are skipped. */
export function asRecords(value: unknown): [number, Loose][] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, i): [number, Loose][] => (isRecord(item) ? [[i, item]] : []));
}

export function asText(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
