import { writeFileSync } from "node:fs";
import { CONFIG_JSON_SCHEMA_PATH, configJsonSchemaText } from "../src/config/config-json-schema.js";

// Rewrites config/reporter.schema.json from the zod schema. Run from the repository root:
//   npx tsx scripts/generate-config-schema.ts
writeFileSync(CONFIG_JSON_SCHEMA_PATH, configJsonSchemaText());
process.stdout.write(`wrote ${CONFIG_JSON_SCHEMA_PATH}\n`);
