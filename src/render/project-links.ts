// A project's dashboard link from the team's `dashboard` template, the same in every destination
// and the workbook.

const PLACEHOLDER = "{project_id}";

/** Whether the dashboard template links each project (it has `{project_id}`) or the team. */
export function linksPerProject(template: string): boolean {
  return template.includes(PLACEHOLDER);
}

/** The dashboard URL of one project: the template with the id URL-encoded. */
export function projectDashboardUrl(template: string, projectId: string): string {
  return template.replaceAll(PLACEHOLDER, encodeURIComponent(projectId));
}

/** The project's dashboard link when the template names a project; null otherwise. */
export function projectUrl(template: string | null, projectId: string): string | null {
  if (template === null || !template.includes("{project_id}")) return null;
  return template.replaceAll("{project_id}", encodeURIComponent(projectId));
}
