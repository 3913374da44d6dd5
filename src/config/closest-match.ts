/**
 * The candidate `word` abbreviates, else the one nearest by edit distance (case-insensitive),
 * or null when none is close enough to be a plausible typo: at most a third of the word's
 * length, and at least 1.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | null {
  const target = word.toLowerCase();
  const list = [...candidates];
  // An abbreviation ("mon", "sched") names its word as surely as a typo does.
  const extending = list.filter((c) => target.length >= 2 && c.toLowerCase().startsWith(target));
  if (extending.length === 1) return extending[0] as string;
  const limit = Math.max(1, Math.floor(target.length / 3));
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of list) {
    const distance = editDistance(target, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : null;
}

/** Levenshtein distance, with a transposition counted as one edit ("shcedule"). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(value);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}
