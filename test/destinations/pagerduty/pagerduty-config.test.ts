import { describe, expect, it } from "vitest";
import { SECRET_PATHS } from "../../../src/config/secret-paths.js";
import { DESTINATIONS } from "../../../src/destinations/registry.js";
import { configRedactor } from "../../../src/redact-errors.js";
import { configText, fullEnv, issueLines, parse } from "../../config/config-builders.js";
import { FAKE_ROUTING_KEY } from "../../fake-pagerduty/fake-events-api.js";

// PagerDuty in the config: an alert's `pagerduty: { routing_key }`, the key a secret redacted
// like every other, its destination named by a short digest of it; a digest refused with why.

const env = fullEnv({ PD_ROUTING_KEY: FAKE_ROUTING_KEY });
const onAlert = { "teams[0].alerts[0].pagerduty": { routing_key: "${PD_ROUTING_KEY}" } };

describe("pagerduty: in the config", () => {
  it("takes an alert's routing key as a secret, named pagerduty:<6 hex> without it", () => {
    const result = parse(configText(onAlert), { env });
    if (!("config" in result)) throw new Error(issueLines(result).join("\n"));
    const target = result.config.teams[0]?.alerts[0]?.pagerduty;
    expect(target?.destination).toMatch(/^pagerduty:[0-9a-f]{6}$/);
    expect(JSON.stringify(target)).not.toContain(FAKE_ROUTING_KEY);
    expect(SECRET_PATHS.map((s) => s.path)).toContain("teams[].alerts[].pagerduty.routing_key");
    const redact = configRedactor(result.config);
    expect(redact(`PagerDuty said ${FAKE_ROUTING_KEY} is wrong`)).toBe(
      "PagerDuty said [redacted] is wrong",
    );
    // The Events API endpoint, unless PAGERDUTY_EVENTS_URL says another.
    expect(result.config.pagerduty.eventsUrl).toBe("https://events.pagerduty.com/v2/enqueue");
    const local = parse(configText(onAlert), {
      env: { ...env, PAGERDUTY_EVENTS_URL: "http://127.0.0.1:9/v2/enqueue" },
    });
    if (!("config" in local)) throw new Error(issueLines(local).join("\n"));
    expect(local.config.pagerduty.eventsUrl).toBe("http://127.0.0.1:9/v2/enqueue");
    expect(DESTINATIONS.pagerduty.id(target as never)).toBe(target?.destination);
  });

  it("refuses it on a digest, saying it goes on an alert", () => {
    const result = parse(
      configText({ "teams[0].digests[0].pagerduty": { routing_key: "${PD_ROUTING_KEY}" } }),
      { env },
    );
    const said = issueLines(result).join("\n");
    expect(said).toMatch(
      /teams\[0\]\.digests\[0\]\.pagerduty: PagerDuty takes alerts, not digests/,
    );
    expect(said).toContain("teams[].alerts[].pagerduty");
    expect(said).not.toContain(FAKE_ROUTING_KEY);
  });
});
