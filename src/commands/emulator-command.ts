import { DEMO_PROJECT_COUNT } from "../insights/emulator/project-catalog.js";
import { type RunningEmulator, startEmulator } from "../insights/emulator/start-emulator.js";

export interface EmulatorCommandOptions {
  port?: number;
  key?: string;
  today?: string;
  projects?: number;
  seed?: string;
  latencyMs?: number;
  faults?: string;
}

/** How many projects the start-up line names before summarising the rest. */
const LISTED_PROJECTS = 8;

/**
 * `insights-reporter emulator`: starts the local insights API and prints its base URL as the
 * first line (scripts read it), then the projects and the key to use.
 */
export async function emulatorCommand(
  opts: EmulatorCommandOptions,
  out: (line: string) => void,
): Promise<RunningEmulator> {
  const key = opts.key ?? "demo-key";
  const emulator = await startEmulator({
    key,
    ...(opts.port !== undefined && { port: opts.port }),
    ...(opts.today !== undefined && { today: opts.today }),
    // The demo's projects by default, so config/demo.yaml runs against it as printed.
    projects: opts.projects ?? DEMO_PROJECT_COUNT,
    ...(opts.seed !== undefined && { seed: opts.seed }),
    ...(opts.latencyMs !== undefined && { latencyMs: opts.latencyMs }),
    ...(opts.faults !== undefined && { faults: opts.faults }),
  });
  out(emulator.url);
  const listed = emulator.projects.slice(0, LISTED_PROJECTS).map((p) => `${p.id} (${p.name})`);
  const more = emulator.projects.length - listed.length;
  const projects =
    listed.length === 0
      ? "no projects"
      : `projects: ${listed.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
  out(`${projects} — send the header X-Api-Key: ${key}`);
  return emulator;
}
