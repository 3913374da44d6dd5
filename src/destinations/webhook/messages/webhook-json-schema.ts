import * as z from "zod";
import { webhookBodySchema } from "./webhook-body-schema.js";

/** Where the generated schema is committed, relative to the repository root. */
export const WEBHOOK_JSON_SCHEMA_PATH = "docs/webhook-v1.schema.json";

/** The command that rewrites it, named in the staleness test's message. */
export const REGENERATE_WEBHOOK_COMMAND = "npx tsx scripts/generate-webhook-schema.ts";

/** The JSON Schema of the webhook body, generated from the zod schema the sender builds with. */
export function webhookJsonSchemaText(): string {
  const schema = z.toJSONSchema(webhookBodySchema, {
    io: "input",
    target: "draft-2020-12",
  });
  return `${JSON.stringify({ title: "insights-reporter webhook body, version 1", ...schema }, null, 2)}\n`;
}
