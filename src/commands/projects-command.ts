import { apiSettingsFor } from "../config/api-from-env.js";
import { createApiOnlyClient } from "../create-read-clients.js";
import type { ProjectSummary } from "../insights/types.js";
import { printableText } from "../render/printable-text.js";
import { wrap } from "../render/terminal/terminal-style.js";
import { terminalWidth } from "./terminal-width.js";

export interface ProjectsOptions {
  config?: string;
}

/**
 * `projects`: the workspace's projects, id and name, one a line — the ids a config's
 * `projects:` lists. Needs only the insights API: a config's, or with no config
 * INSIGHTS_API_URL and INSIGHTS_API_KEY alone.
 */
export async function projectsCommand(
  opts: ProjectsOptions,
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const api = createApiOnlyClient(apiSettingsFor(opts, env));
  try {
    const projects = await api.listProjects();
    if (projects.length === 0) {
      out("no projects in this workspace");
      return 0;
    }
    for (const line of projectLines(projects, terminalWidth())) out(line);
    return 0;
  } finally {
    await api.close();
  }
}

/**
 * The heading and a line per project, id and name, with no control character from the API. A
 * name too long for `columns` breaks between words, going on under the name column.
 */
export function projectLines(projects: readonly ProjectSummary[], columns = 80): string[] {
  const rows = projects.map((p) => ({ id: printableText(p.id), name: printableText(p.name) }));
  const width = Math.max(2, ...rows.map((p) => p.id.length));
  const under = " ".repeat(width + 2);
  return [
    `${"id".padEnd(width)}  name`,
    ...rows.flatMap((p) => wrap(p.name, columns, `${p.id.padEnd(width)}  `, under)),
  ];
}
