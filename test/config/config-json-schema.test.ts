import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CONFIG_JSON_SCHEMA_PATH,
  configJsonSchemaText,
  REGENERATE_COMMAND,
} from "../../src/config/config-json-schema.js";

describe("config/reporter.schema.json", () => {
  it("is what the zod schema generates today", () => {
    const committed = readFileSync(CONFIG_JSON_SCHEMA_PATH, "utf8");
    const fresh = configJsonSchemaText();
    if (committed !== fresh) {
      expect.fail(
        `${CONFIG_JSON_SCHEMA_PATH} is stale — regenerate it with: ${REGENERATE_COMMAND}`,
      );
    }
  });

  it("refuses unknown keys and leaves defaulted keys optional, as the loader does", () => {
    const schema = JSON.parse(configJsonSchemaText());
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(["api", "teams"]);
    const digest = schema.properties.teams.items.properties.digests.items;
    expect(digest.required).toEqual(["name", "schedule"]);
    expect(digest.properties.period.enum).toContain("previous_week");
  });
});
