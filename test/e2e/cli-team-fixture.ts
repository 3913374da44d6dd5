import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { API_KEY, apiEnv, apiSection, IDS, TODAY, tempDir, writeConfig } from "./e2e-setup.js";
import type { RawFilters } from "./raw-figures.js";
import { type CliResult, requireBuiltCli, runCli } from "./run-cli.js";

/**
 * One team of three projects with filters (Berlin, a weekly digest), served by the emulator,
 * for the commands that only read: `preview` and `export`.
 */

export const ZONE = "Europe/Berlin";

export const PROJECTS: {
  id: string;
  name: string;
  filters: RawFilters;
  yaml: Record<string, unknown>;
}[] = [
  { id: IDS.webE2e, name: "Web E2E", filters: { branch: "main" }, yaml: { branch: "main" } },
  { id: IDS.checkoutApi, name: "Checkout API", filters: {}, yaml: {} },
  {
    id: IDS.search,
    name: "Search",
    filters: { tags: ["regression"] },
    yaml: { name: "Search", tags: ["regression"] },
  },
];

export interface TeamFixture {
  emulator: RunningEmulator;
  dir: string;
  /** The CLI with `--config` of the team's config and the API in its environment. */
  cli(args: string[], options?: { timeoutMs?: number }): Promise<CliResult>;
  /** The emulator's raw runs of a project. */
  runsOf(id: string): RunningEmulator["projects"][number]["runs"];
  close(): Promise<void>;
}

/** `dashboardUrl`: the team's `dashboard_url`, when the test needs links to dashboards. */
export async function startTeamFixture(
  options: { dashboardUrl?: string } = {},
): Promise<TeamFixture> {
  requireBuiltCli();
  const [emulator, dirs] = await Promise.all([
    startEmulator({ today: TODAY, key: API_KEY }),
    tempDir(),
  ]);
  const configPath = await writeConfig(dirs.dir, {
    api: apiSection(),
    teams: [
      {
        name: "checkout",
        title: "Checkout squad",
        timezone: ZONE,
        ...(options.dashboardUrl ? { dashboard_url: options.dashboardUrl } : {}),
        projects: PROJECTS.map((p) => ({ id: p.id, ...p.yaml })),
        digests: [
          {
            name: "weekly",
            schedule: "0 8 * * 1",
            period: "previous_week",
            slack: { channel: "C0123ABCD" },
          },
        ],
      },
    ],
  });
  return {
    emulator,
    dir: dirs.dir,
    cli: (args, options = {}) =>
      runCli([...args, "--config", configPath], {
        env: apiEnv(emulator.url),
        cwd: dirs.dir,
        ...options,
      }),
    runsOf: (id) => emulator.projects.find((p) => p.id === id)?.runs ?? [],
    async close() {
      await emulator.close();
      await dirs.remove();
    },
  };
}
