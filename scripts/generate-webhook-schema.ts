import { writeFileSync } from "node:fs";
import {
  WEBHOOK_JSON_SCHEMA_PATH,
  webhookJsonSchemaText,
} from "../src/destinations/webhook/messages/webhook-json-schema.js";

// Rewrites docs/webhook-v1.schema.json from the zod schema of the webhook body. Run from the
// repository root:
//   npx tsx scripts/generate-webhook-schema.ts
writeFileSync(WEBHOOK_JSON_SCHEMA_PATH, webhookJsonSchemaText());
process.stdout.write(`wrote ${WEBHOOK_JSON_SCHEMA_PATH}\n`);
