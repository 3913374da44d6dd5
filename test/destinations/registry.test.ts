import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { configSchema } from "../../src/config/schema.js";
import { SECRET_PATHS } from "../../src/config/secret-paths.js";
import { createOutboxFiles } from "../../src/deliver/outbox.js";
import {
  DESTINATION_KINDS,
  DESTINATIONS,
  type DestinationKind,
} from "../../src/destinations/registry.js";
import { createLogger } from "../../src/logger.js";
import { configText, issueLines, parse } from "../config/config-builders.js";

// The registry and the config hold each other: every destination kind listed brings its config
// fragments, its id and its outbox writer; and every destination-shaped field of the config is
// a listed kind, so a field added to the schema without a module (or a module without a field)
// fails here instead of compiling and silently sending nothing.

/** The fields of a digest, an alert and the config itself that are not destinations. */
const NOT_DESTINATIONS = {
  top: ["api", "state", "history", "server", "dashboard_url", "incidents", "teams"],
  digest: ["name", "schedule", "period", "compare_to", "catch_up", "min_change_pp", "charts"],
  alert: [
    "name",
    "metric",
    "against",
    "window",
    "schedule",
    "warn_at",
    "critical_at",
    "clear_at",
    "min_tests",
    "confidence",
    "for",
    "repeat_every",
    "scope",
    "on_no_data",
    "catch_up",
    "chart",
  ],
};

/** The object inside optional/default/pipe wrappers. */
function objectOf(node: z.ZodType): z.ZodObject {
  let current: z.ZodType = node;
  for (;;) {
    if (current instanceof z.ZodObject) return current;
    if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else if ("unwrap" in current && typeof current.unwrap === "function") {
      current = current.unwrap() as z.ZodType;
    } else throw new Error(`not an object schema: ${current.constructor.name}`);
  }
}

function arrayElement(node: z.ZodType): z.ZodType {
  let current: z.ZodType = node;
  while (!(current instanceof z.ZodArray)) {
    if ("unwrap" in current && typeof current.unwrap === "function") {
      current = current.unwrap() as z.ZodType;
    } else throw new Error("not an array schema");
  }
  return current.element as z.ZodType;
}

const top = objectOf(configSchema);
const digestShape = objectOf(arrayElement(objectOf(arrayElement(top.shape.teams)).shape.digests))
  .shape as Record<string, z.ZodType>;
const alertShape = objectOf(arrayElement(objectOf(arrayElement(top.shape.teams)).shape.alerts))
  .shape as Record<string, z.ZodType>;
const topShape = top.shape as Record<string, z.ZodType>;

const destinationKeys = (shape: Record<string, z.ZodType>, others: string[]) =>
  Object.keys(shape).filter((key) => !others.includes(key));

describe("the destination registry", () => {
  it("lists each kind under its own name", () => {
    for (const kind of DESTINATION_KINDS) expect(DESTINATIONS[kind].kind).toBe(kind);
    expect(DESTINATION_KINDS.length).toBeGreaterThan(0);
  });

  it("gives every kind a config fragment for its settings, a digest and an alert, composed into the schema", () => {
    for (const kind of DESTINATION_KINDS) {
      const { schema } = DESTINATIONS[kind];
      expect(objectOf(topShape[kind] as z.ZodType)).toBe(objectOf(schema.global));
      expect(objectOf(digestShape[kind] as z.ZodType)).toBe(objectOf(schema.digest));
      expect(objectOf(alertShape[kind] as z.ZodType)).toBe(objectOf(schema.alert));
    }
  });

  it("has a kind for every destination field of the config, and no kind without one", () => {
    const kinds = [...DESTINATION_KINDS].sort();
    expect(destinationKeys(topShape, NOT_DESTINATIONS.top).sort()).toEqual(kinds);
    expect(destinationKeys(digestShape, NOT_DESTINATIONS.digest).sort()).toEqual(kinds);
    expect(destinationKeys(alertShape, NOT_DESTINATIONS.alert).sort()).toEqual(kinds);
  });

  it("resolves every kind's field of a full config", () => {
    const result = parse(configText());
    if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
    const [first] = result.config.teams;
    const digest = first?.digests[0] as unknown as Record<string, unknown>;
    const alert = first?.alerts[0] as unknown as Record<string, unknown>;
    for (const kind of DESTINATION_KINDS) {
      expect(result.config[kind], kind).toBeTypeOf("object");
      expect(kind in digest, `digest.${kind}`).toBe(true);
      expect(kind in alert, `alert.${kind}`).toBe(true);
    }
  });

  it("gives every kind a credential in its settings, marked secret, and env defaults the schema knows", () => {
    const secrets = SECRET_PATHS.map((s) => s.path);
    for (const kind of DESTINATION_KINDS) {
      const { credential, envDefaults, schema } = DESTINATIONS[kind];
      const fields = Object.keys(objectOf(schema.global).shape);
      for (const key of Object.keys(envDefaults)) expect(fields).toContain(key);
      // A kind whose every destination carries its own URL has no shared credential.
      if (credential === null) continue;
      expect(fields).toContain(credential.key);
      expect(secrets).toContain(`${kind}.${credential.key}`);
      expect(envDefaults[credential.key]).toBe(credential.variable);
    }
  });

  it("gives every kind an id named after it", () => {
    expect(DESTINATIONS.slack.id({ channel: "C0123" })).toBe("slack:C0123");
    expect(DESTINATIONS.email.id({ to: ["a@x.test", "b@y.test"] })).toBe("email:a@x.test,b@y.test");
    const url = "https://example.test/workflows/1/invoke?sig=s3cr3t";
    const teams = DESTINATIONS.msteams.resolve.digest({ webhook_url: url });
    const hook = DESTINATIONS.webhook.resolve.alert({ url, secret: "k", format: "insights" });
    // A URL carries a token: its destination goes by a digest of it, never by the URL.
    expect(DESTINATIONS.msteams.id(teams)).toMatch(/^msteams:[0-9a-f]{12}$/);
    expect(DESTINATIONS.webhook.id(hook)).toMatch(/^webhook:[0-9a-f]{12}$/);
    // A routing key opens incidents: its service goes by a short digest of it.
    const pd = DESTINATIONS.pagerduty.resolve.alert({ routing_key: "k".repeat(32) });
    expect(DESTINATIONS.pagerduty.id(pd)).toMatch(/^pagerduty:[0-9a-f]{6}$/);
    expect(DESTINATIONS.msteams.id(DESTINATIONS.msteams.resolve.alert({ webhook_url: url }))).toBe(
      DESTINATIONS.msteams.id(teams),
    );
    // One address per kind: a kind added to the registry and not here does not compile.
    const addresses: { [K in DestinationKind]: unknown } = {
      slack: { channel: "C1" },
      email: { to: ["a@x.test"] },
      msteams: teams,
      webhook: hook,
      pagerduty: DESTINATIONS.pagerduty.resolve.alert({ routing_key: "k".repeat(32) }),
    };
    for (const kind of DESTINATION_KINDS) {
      expect(DESTINATIONS[kind].id(addresses[kind] as never)).toMatch(new RegExp(`^${kind}:.`));
    }
  });

  it("gives every kind an outbox writer, and no clients without its credential", async () => {
    const dir = await mkdtemp(join(tmpdir(), "registry-outbox-"));
    try {
      const result = parse(configText());
      if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
      const files = createOutboxFiles(dir);
      const logger = createLogger({ level: "silent" });
      for (const kind of DESTINATION_KINDS) {
        const module = DESTINATIONS[kind];
        const global = result.config[kind] as never;
        const outbox = module.outbox(files, global);
        expect(outbox.digest, kind).toBeTypeOf("object");
        expect(outbox.alert, kind).toBeTypeOf("object");
        if (module.credential === null) continue;
        // The resolved settings with the credential (camelCase there) unset.
        const credential = module.credential.key.replace(/_([a-z])/g, (_, c: string) =>
          c.toUpperCase(),
        );
        const unset = { ...(result.config[kind] as object), [credential]: null };
        expect(credential in result.config[kind], credential).toBe(true);
        expect(module.clients(unset as never, logger), kind).toBeNull();
      }
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
