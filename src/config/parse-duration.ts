const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds in a duration the schema has already accepted ("30s", "6h", "1d"). */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${JSON.stringify(text)}`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
