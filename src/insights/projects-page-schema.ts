import * as z from "zod";
import { type Parsed, problemOf } from "./shape-problem.js";
import type { ProjectSummary } from "./types.js";

// One page of `GET /projects`, checked and mapped. Project fields beyond `id` and `name` are
// not documented, so only those two are read; extra fields are ignored.

const count = z.number().int().nonnegative();

const projectsPage = z.object({
  projects: z.array(z.object({ id: z.string().min(1), name: z.string().nullish() })),
  pagination: z
    .object({
      total_pages: count.nullish(),
      current_page_number: count.nullish(),
    })
    .nullish(),
});

/** One page of the list-projects operation. `totalPages` is null when the API did not say. */
export interface ProjectsPage {
  projects: ProjectSummary[];
  totalPages: number | null;
}

/** Checks and maps one page of `GET /projects`; a project without a name is named by its id. */
export function parseProjectsPage(body: unknown): Parsed<ProjectsPage> {
  const result = projectsPage.safeParse(body);
  if (!result.success) return problemOf(result.error);
  return {
    ok: true,
    value: {
      projects: result.data.projects.map((p) => ({ id: p.id, name: p.name ?? p.id })),
      totalPages: result.data.pagination?.total_pages ?? null,
    },
  };
}
