import type { RunningEmulator } from "../../src/insights/emulator/start-emulator.js";

/** Builds a path with a query string, leaving out undefined parameters. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** GETs a path under the emulator's base URL over real HTTP; `key: null` sends no key. */
export async function getFromEmulator(
  emulator: RunningEmulator,
  path: string,
  options: { key?: string | null; accept?: string; signal?: AbortSignal } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests probe response bodies field by field
): Promise<{ status: number; headers: Headers; text: string; json: () => any }> {
  const headers: Record<string, string> = { accept: options.accept ?? "application/json" };
  const key = options.key === undefined ? "demo-key" : options.key;
  if (key !== null) headers["x-api-key"] = key;
  const response = await fetch(`${emulator.url}${path}`, {
    headers,
    signal: options.signal ?? null,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** The insights wire body, as far as tests read it. */
export interface WireInsights {
  start_date: string;
  end_date: string;
  timezone: string;
  runs: { runs_volume_data: WireRunsDay[]; overall_data: Required<Omit<WireRunsDay, "date">> };
  tests: {
    tests_volume_data: ({ date: string } & Record<string, unknown>)[];
    overall_data: Record<string, number>;
  };
}

export interface WireRunsDay {
  date: string;
  passed_runs_count?: number;
  failed_runs_count?: number;
  average_passing_rate?: number;
  average_run_duration?: number;
}
