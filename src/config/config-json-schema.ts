import * as z from "zod";
import { configSchema } from "./schema.js";

/** Where the generated schema is committed, relative to the repository root. */
export const CONFIG_JSON_SCHEMA_PATH = "config/reporter.schema.json";

/** The command that rewrites it, named in the staleness test's message. */
export const REGENERATE_COMMAND = "npx tsx scripts/generate-config-schema.ts";

/**
 * The JSON Schema of the config file as people write it (defaults optional, unknown keys
 * refused), for editor completion. Generated from `configSchema`, so the two cannot disagree.
 */
export function configJsonSchemaText(): string {
  const schema = z.toJSONSchema(configSchema, { io: "input", target: "draft-2020-12" });
  return `${JSON.stringify(schema, null, 2)}\n`;
}
