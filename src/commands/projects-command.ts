import { createApiClient } from "../create-deps.js";
import { loadCommandConfig } from "./command-context.js";

export interface ProjectsOptions {
  config?: string;
}

/**
 * `projects`: the workspace's projects, id and name, one a line — the ids a config's
 * `projects:` lists. Needs only the API key: no Slack or SMTP credentials.
 */
export async function projectsCommand(
  opts: ProjectsOptions,
  out: (line: string) => void,
): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: false });
  const api = createApiClient(config);
  try {
    const projects = await api.listProjects();
    if (projects.length === 0) {
      out("no projects in this workspace");
      return 0;
    }
    const width = Math.max(2, ...projects.map((p) => p.id.length));
    out(`${"id".padEnd(width)}  name`);
    for (const p of projects) out(`${p.id.padEnd(width)}  ${p.name}`);
    return 0;
  } finally {
    await api.close();
  }
}
