import type Database from "better-sqlite3";

/** The tables of a database, each with its column names; SQLite's own tables left out. */
export type SchemaTables = ReadonlyMap<string, readonly string[]>;

/** Reads the tables and columns of an open database (the schema only, no rows). */
export function readSchemaTables(db: Database.Database): SchemaTables {
  const names = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((row) => row.name);
  return new Map(
    names.map((name) => [
      name,
      db
        .prepare<[string], { name: string }>("SELECT name FROM pragma_table_info(?)")
        .all(name)
        .map((column) => column.name),
    ]),
  );
}

/**
 * What `expected` has and `actual` lacks, as `table deliveries` or `slots.team`. Extra tables
 * and columns are not counted: they get in nobody's way.
 */
export function missingFromSchema(actual: SchemaTables, expected: SchemaTables): string[] {
  const missing: string[] = [];
  for (const [table, columns] of expected) {
    const present = actual.get(table);
    if (!present) {
      missing.push(`table ${table}`);
      continue;
    }
    for (const column of columns) {
      if (!present.includes(column)) missing.push(`${table}.${column}`);
    }
  }
  return missing;
}
