import { loadConfig, resolveConfigPath } from "../config/load-config.js";
import type {
  AlertConfig,
  ConfigWithoutApi,
  DigestConfig,
  ResolvedConfig,
  Team,
} from "../config/types.js";
import { UsageError } from "../errors.js";

/** Loads the config a command names (`--config`, else REPORTER_CONFIG, else the default path). */
export function loadCommandConfig(
  opts: { config?: string },
  options: { requireCredentials?: boolean; env?: NodeJS.ProcessEnv; team?: string } = {},
): ResolvedConfig {
  const env = options.env ?? process.env;
  return loadConfig(resolveConfigPath(opts.config, env), {
    env,
    requireCredentials: options.requireCredentials ?? true,
    // A command for one team sends only that team's jobs: other teams' secrets are not needed.
    ...(options.team === undefined ? {} : { credentialsFor: options.team }),
  });
}

/** The team named on the command line, or a usage error listing the ones there are. */
export function findTeam(config: ConfigWithoutApi, name: string): Team {
  const team = config.teams.find((t) => t.name === name);
  if (!team) {
    throw new UsageError(
      `no team "${name}" in ${config.source} — teams: ${config.teams.map((t) => t.name).join(", ")}`,
    );
  }
  return team;
}

/** The team's digest named on the command line, or a usage error listing the ones there are. */
export function findDigest(team: Team, name: string): DigestConfig {
  const digest = team.digests.find((d) => d.name === name);
  if (!digest) {
    const known = team.digests.map((d) => d.name).join(", ") || "none";
    throw new UsageError(`team "${team.name}" has no digest "${name}" — digests: ${known}`);
  }
  return digest;
}

/** Whether to colour terminal output: a TTY, and NO_COLOR not set (https://no-color.org). */
export function useColor(stream: NodeJS.WriteStream = process.stdout, env = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** The team's alert named on the command line, or a usage error listing the ones there are. */
export function findAlert(team: Team, name: string): AlertConfig {
  const alert = team.alerts.find((a) => a.name === name);
  if (!alert) {
    const known = team.alerts.map((a) => a.name).join(", ") || "none";
    throw new UsageError(`team "${team.name}" has no alert "${name}" — alerts: ${known}`);
  }
  return alert;
}
