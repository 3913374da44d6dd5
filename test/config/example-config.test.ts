import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tryLoadConfig } from "../../src/config/load-config.js";
import { fullEnv } from "./config-builders.js";

const EXAMPLE = "config/reporter.example.yaml";

describe("config/reporter.example.yaml", () => {
  it("passes validation with the variables it references set", () => {
    const result = tryLoadConfig(EXAMPLE, { env: fullEnv() });
    if ("issues" in result) throw new Error(JSON.stringify(result.issues, null, 2));
    expect(result.config.teams.map((t) => [t.name, t.timezone])).toEqual([
      ["checkout", "Europe/Berlin"],
      ["payments", "America/New_York"],
    ]);
  });

  it("points editors at the generated JSON Schema on its first line", () => {
    const firstLine = readFileSync(EXAMPLE, "utf8").split("\n", 1)[0];
    expect(firstLine).toBe("# yaml-language-server: $schema=./reporter.schema.json");
  });

  it("mentions every option of the schema", () => {
    const text = readFileSync(EXAMPLE, "utf8");
    const schema = JSON.parse(readFileSync("config/reporter.schema.json", "utf8"));
    const names = optionNames(schema);
    expect(names).toEqual(
      expect.arrayContaining(["api_url", "max_bytes", "clear_at", "attach_xlsx"]),
    );
    const missing = names.filter((key) => !new RegExp(`\\b${key}:`).test(text));
    expect(missing).toEqual([]);
  });
});

/** Every property name anywhere in a JSON Schema. */
function optionNames(node: unknown): string[] {
  if (typeof node !== "object" || node === null) return [];
  const own = "properties" in node ? Object.keys(node.properties as object) : [];
  const nested = Object.values(node).flatMap(optionNames);
  return [...new Set([...own, ...nested])];
}
