import { join } from "node:path";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import {
  FAKE_SLACK_TOKEN,
  type FakeSlack,
  startFakeSlack,
} from "../fake-slack/fake-slack-server.js";
import { startSmtpServer, type TestSmtpServer } from "../smtp/start-smtp-server.js";
import { API_KEY, apiEnv, apiSection, IDS, TODAY, tempDir, writeConfig } from "./e2e-setup.js";
import { countRuns, pool, type RawFilters, runsIn } from "./raw-figures.js";
import { type CliResult, requireBuiltCli, runCli } from "./run-cli.js";

/**
 * The world `insights-reporter run` is tested in: the emulator, a fake Slack, an SMTP server
 * that wants a login, a temp dir for configs and ledgers, and the CLI run in its own process
 * with credentials in its environment.
 */

export const SMTP_USER = "mailer";
export const SMTP_PASS = "smtp-pass-9x7Q";
export const ZONE = "Europe/Berlin";
/** 09:00 in Berlin on Wednesday: a daily digest reports Tuesday, Nov 17. */
export const AT = "2026-11-18T08:00:00Z";
export const DAY = { start: "2026-11-17", end: "2026-11-17" };

export const PROJECTS: { id: string; filters: RawFilters; yaml: Record<string, unknown> }[] = [
  { id: IDS.webE2e, filters: { branch: "main" }, yaml: { branch: "main" } },
  { id: IDS.checkoutApi, filters: {}, yaml: {} },
  { id: IDS.billing, filters: {}, yaml: { name: "Billing" } },
];

export interface RunFixture {
  emulator: RunningEmulator;
  slack: FakeSlack;
  smtp: TestSmtpServer;
  /** Everything every CLI run printed, to search for secrets. */
  outputs: string[];
  /** A one-team config with these digests (and its own ledger), written to the temp dir. */
  config(
    digests: Record<string, unknown>[],
    moreProjects?: Record<string, unknown>[],
  ): Promise<string>;
  /** The environment a user would set, with some variables replaced. */
  env(overrides?: Record<string, string>): Record<string, string>;
  cli(args: string[], environment?: Record<string, string>): Promise<CliResult>;
  /** `run --team checkout --digest D --at AT --config F`. */
  run(configPath: string, digest: string, environment?: Record<string, string>): Promise<CliResult>;
  /** Clears what the fakes received. */
  reset(): void;
  close(): Promise<void>;
}

/** `projects`: how many the emulator serves (default 6; 8 adds a silent and a steady one). */
export async function startRunFixture({ projects = 6 } = {}): Promise<RunFixture> {
  requireBuiltCli();
  const [emulator, slack, smtp, dirs] = await Promise.all([
    startEmulator({ today: TODAY, key: API_KEY, projects }),
    startFakeSlack(),
    startSmtpServer(),
    tempDir(),
  ]);
  smtp.requireAuth(SMTP_USER, SMTP_PASS);
  const outputs: string[] = [];
  let configs = 0;

  const env = (overrides: Record<string, string> = {}): Record<string, string> => ({
    ...apiEnv(emulator.url),
    SLACK_BOT_TOKEN: FAKE_SLACK_TOKEN,
    SLACK_API_URL: slack.url,
    SMTP_URL: smtp.url({ user: SMTP_USER, pass: SMTP_PASS }),
    ...overrides,
  });
  const cli = async (args: string[], environment: Record<string, string> = env()) => {
    const result = await runCli(args, { env: environment, cwd: dirs.dir });
    outputs.push(result.stdout, result.stderr);
    return result;
  };

  return {
    emulator,
    slack,
    smtp,
    outputs,
    env,
    cli,
    run: (configPath, digest, environment) =>
      cli(
        ["run", "--team", "checkout", "--digest", digest, "--at", AT, "--config", configPath],
        environment,
      ),
    async config(digests, moreProjects = []) {
      configs += 1;
      return writeConfig(
        dirs.dir,
        {
          api: apiSection({ max_attempts: 1 }),
          email: { from: "Test insights <insights@example.com>" },
          state: { path: join(dirs.dir, `ledger-${configs}.sqlite`) },
          teams: [
            {
              name: "checkout",
              title: "Checkout squad",
              timezone: ZONE,
              projects: [...PROJECTS.map((p) => ({ id: p.id, ...p.yaml })), ...moreProjects],
              digests: digests.map((d) => ({
                schedule: "0 9 * * 1-5",
                period: "previous_day",
                ...d,
              })),
            },
          ],
        },
        `run-${configs}.yaml`,
      );
    },
    reset() {
      slack.posts.length = 0;
      slack.uploads.length = 0;
      smtp.messages.length = 0;
    },
    async close() {
      await Promise.all([emulator.close(), slack.close(), smtp.close()]);
      await dirs.remove();
    },
  };
}

/** The team's figures for Nov 17, per project and pooled, recomputed from the raw runs. */
export function rawTeam(emulator: RunningEmulator) {
  const perProject = PROJECTS.map((p) =>
    countRuns(
      runsIn(emulator.projects.find((e) => e.id === p.id)?.runs ?? [], DAY, ZONE, p.filters),
    ),
  );
  return { perProject, team: pool(perProject) };
}
