// A configured project the API's project list does not know is named by its id (the insights
// collector falls back to it): wherever a name is shown with its id, the id then says nothing
// more and is shown once, never "ghost-7 (ghost-7)".

/** Whether a project's id says something its name does not. */
export function idAddsToName(name: string, projectId: string): boolean {
  return name !== "" && name !== projectId;
}

/** "Payments (pay-01)"; the id alone when the project has no name of its own. */
export function nameWithId(name: string, projectId: string): string {
  return idAddsToName(name, projectId) ? `${name} (${projectId})` : projectId;
}
