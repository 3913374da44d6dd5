import { describe, expect, it } from "vitest";
import { SECRET_PATHS } from "../../src/config/secret-paths.js";
import { Secret } from "../../src/secret.js";
import { configText, issueLines, parse } from "./config-builders.js";

// The secret fields are read off the schema; this holds that list to what a resolved config
// really carries as Secret, so a new secret field anywhere cannot slip past the redaction.

/** Where `node` holds a Secret, as resolved paths with `[]` for any array index. */
function secretPathsIn(node: unknown, path = ""): string[] {
  if (node instanceof Secret) return [path];
  if (Array.isArray(node)) return node.flatMap((item) => secretPathsIn(item, `${path}[]`));
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, child]) =>
    secretPathsIn(child, path ? `${path}.${key}` : key),
  );
}

describe("the secret paths of the config", () => {
  it("are every Secret field of a full resolved config, and nothing else", () => {
    // Every optional secret set: the PostgreSQL ledger instead of the SQLite file.
    const teams = { webhook_url: "https://teams.test/workflows/1/invoke?sig=s" };
    const webhook = { url: "https://hooks.test/insights?token=t", secret: "whsec" };
    const result = parse(
      configText({
        "state.url": "postgres://u:db-pass@127.0.0.1:5432/r",
        "slack.app_token": "xapp-1-A0APP-1-secret",
        "teams[0].digests[0].msteams": teams,
        "teams[0].digests[0].webhook": webhook,
        "teams[0].alerts[0].msteams": teams,
        "teams[0].alerts[0].webhook": webhook,
        "teams[0].alerts[0].pagerduty": { routing_key: "R0UT1NGk3yFAKEpd0123456789abcdef" },
        incidents: {
          msteams: teams,
          webhook,
          pagerduty: { routing_key: "R0UT1NGk3yFAKEpd0123456789abcdef" },
        },
      }),
    );
    if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
    const found = [...new Set(secretPathsIn(result.config))].sort();
    expect(found).toEqual(SECRET_PATHS.map((s) => s.resolved).sort());
    expect(found).toContain("state.url");
    expect(found).toContain("slack.appToken");
  });

  it("mark as header values the ones sent in an HTTP header", () => {
    const header = SECRET_PATHS.filter((s) => s.header).map((s) => s.path);
    expect(header.sort()).toEqual(["api.key", "slack.app_token", "slack.token"]);
  });

  it("scrub the ledger URL's password from config messages too", () => {
    const password = "SEKRIT-db-password";
    const result = parse(
      configText({
        "state.url": `postgres://reporter:${password}@127.0.0.1:5432/reporter`,
        "teams[1].timezone": password,
      }),
    );
    const lines = issueLines(result).join("\n");
    expect(lines).toContain("teams[1].timezone");
    expect(lines).not.toContain(password);
  });
});

describe("a Teams or webhook URL", () => {
  it("is refused when it is not an http(s) URL, without the value in the message", () => {
    const result = parse(
      configText({
        "teams[0].digests[0].msteams": { webhook_url: "prod-12.logic.azure.com/x?sig=s3cr3t" },
      }),
    );
    const lines = issueLines(result);
    expect(lines).toEqual([
      expect.stringContaining(
        "teams[0].digests[0].msteams.webhook_url: must be an http:// or https:// URL",
      ),
    ]);
    expect(lines.join("\n")).not.toContain("s3cr3t");
  });
});
