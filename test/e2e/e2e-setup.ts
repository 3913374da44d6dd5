import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";

/**
 * What every end-to-end test shares: a fixed "today" for the emulator, fire instants on it,
 * temp dirs, and configs written as YAML files the way a user writes them.
 */

/** The emulator's today: a Wednesday. Its lookback starts 3 months earlier, on 2026-08-18. */
export const TODAY = "2026-11-18";
export const EARLIEST = "2026-08-18";
export const API_KEY = "e2e-api-key-5f3c9a";

/** The default emulator's ids (seed "demo"). */
export const IDS = {
  webE2e: "dlucmsz",
  checkoutApi: "azenvfq",
  mobileSmoke: "mojrmve",
  search: "moqvofb",
  billing: "ielbwnf",
  legacy: "wvecaab",
  /** With 7 projects or more: a flaky spike over the last days, then calm (the demo's alert). */
  designSystem: "xezdgyq",
  /** With 8 projects or more: stops running at noon UTC on Nov 16 (silent on Nov 17). */
  androidApp: "ewnmcna",
  /** With 9 projects or more: a steady Poisson count of runs, which wobbles by chance. */
  iosApp: "rsyvfnh",
} as const;

/** A fresh temp dir, removed by the returned function. */
export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "insights-e2e-"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes `doc` as YAML to `dir/name` and returns the path. */
export async function writeConfig(dir: string, doc: unknown, name = "reporter.yaml") {
  const path = join(dir, name);
  await writeFile(path, stringify(doc));
  return path;
}

/** The top of a config: the API from the environment, as the example config has it. */
export function apiSection(extra: Record<string, unknown> = {}) {
  return { url: "${INSIGHTS_API_URL}", key: "${INSIGHTS_API_KEY}", ...extra };
}

/** The environment a user sets for a config written with `apiSection`. */
export function apiEnv(url: string, key = API_KEY): Record<string, string> {
  return { INSIGHTS_API_URL: url, INSIGHTS_API_KEY: key };
}
