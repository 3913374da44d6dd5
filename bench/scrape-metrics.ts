// Reads a Prometheus text exposition into numbers by series, for benches that watch a daemon
// from outside through its /metrics.

/** `name{labels}` (as exposed, labels in their order) → value; comments and blank lines left out. */
export type Scrape = Map<string, number>;

/** GETs `url` and parses it. */
export async function scrapeMetrics(url: string): Promise<Scrape> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return parseExposition(await res.text());
}

export function parseExposition(text: string): Scrape {
  const series: Scrape = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    series.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return series;
}

/** The sum of every series of metric `name` whose labels contain each of `labels` (`result="sent"`). */
export function sumOf(scrape: Scrape, name: string, ...labels: string[]): number {
  let sum = 0;
  for (const [series, value] of scrape) {
    const brace = series.indexOf("{");
    const metric = brace === -1 ? series : series.slice(0, brace);
    if (metric === name && labels.every((label) => series.includes(label))) sum += value;
  }
  return sum;
}

/** Each value of label `label` among the series of metric `name`, with the sum of its series. */
export function byLabel(scrape: Scrape, name: string, label: string): Map<string, number> {
  const sums = new Map<string, number>();
  const pattern = new RegExp(`${label}="([^"]*)"`);
  for (const [series, value] of scrape) {
    if (!series.startsWith(`${name}{`)) continue;
    const match = pattern.exec(series)?.[1];
    if (match !== undefined) sums.set(match, (sums.get(match) ?? 0) + value);
  }
  return sums;
}
