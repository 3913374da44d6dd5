import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { webhookBodySchema } from "../../src/destinations/webhook/messages/webhook-body-schema.js";
import { runCli } from "../daemon/daemon-process.js";
import {
  FAKE_WEBHOOK_SECRET,
  type FakeReceiver,
  startFakeReceiver,
} from "../fake-webhooks/fake-receiver.js";
import { FAKE_TEAMS_SIG, type FakeTeams, startFakeTeams } from "../fake-webhooks/fake-teams.js";
import { type AlertSetup, startAlertSetup } from "./alert-fixture.js";
import { type RunFixture, startRunFixture } from "./cli-run-fixture.js";

// Microsoft Teams and the signed webhook as a user meets them: the built CLI in its own
// process, a config naming a Teams workflow and a webhook, against the fake workflow (which
// checks every card as Teams would) and a receiver that verifies every signature.

let f: RunFixture;
let teams: FakeTeams;
let hook: FakeReceiver;
beforeAll(async () => {
  [f, teams, hook] = await Promise.all([startRunFixture(), startFakeTeams(), startFakeReceiver()]);
});
afterAll(async () => {
  await Promise.all([f?.close(), teams?.close(), hook?.close()]);
});
afterEach(() => {
  teams.requests.length = 0;
  teams.cards.length = 0;
  hook.requests.length = 0;
  hook.accepted.length = 0;
  hook.keys.length = 0;
});

const KEY = "checkout.daily.2026-11-17";
const urlDigest = () => ({
  name: "daily",
  msteams: { webhook_url: "${TEAMS_WEBHOOK_URL}" },
  webhook: { url: hook.url, secret: "${INSIGHTS_WEBHOOK_SECRET}" },
});
const env = () =>
  f.env({ TEAMS_WEBHOOK_URL: teams.url, INSIGHTS_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET });

/** Everything the CLI printed, and nothing of the URLs' tokens or the secret in it. */
function expectNoSecrets(text: string): void {
  expect(text).not.toContain(FAKE_TEAMS_SIG);
  expect(text).not.toContain(FAKE_WEBHOOK_SECRET);
  expect(text).not.toContain(teams.url);
}

describe("run, to a Teams workflow and a signed webhook", () => {
  it("posts the digest's card and its signed body once each, the slot key as Idempotency-Key", async () => {
    const result = await f.run(await f.config([urlDigest()]), "daily", env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/✓ msteams:[0-9a-f]{12} sent/);
    expect(result.stdout).toMatch(/✓ webhook:[0-9a-f]{12} sent/);
    expectNoSecrets(result.stdout + result.stderr);

    expect(teams.cards).toHaveLength(1);
    const card = teams.cards[0]?.message.attachments[0]?.content as { body: unknown[] };
    expect(JSON.stringify(card.body[0])).toContain("TextRun");
    expect(JSON.stringify(card)).toContain("Checkout squad");

    expect(hook.keys).toEqual([KEY]);
    const body = webhookBodySchema.parse(hook.accepted[0]?.body);
    if (body.kind !== "digest") throw new Error(`a ${body.kind} body, not a digest's`);
    expect(body).toMatchObject({
      version: 1,
      kind: "digest",
      key: KEY,
      team: { name: "checkout" },
    });
    expect(body.period).toMatchObject({ start: "2026-11-17", end: "2026-11-17" });
    expect(body.projects).toHaveLength(3);
  });

  it("waits out a 429 from Teams and a 503 from the webhook, then delivers each once", async () => {
    teams.failNext(429, { retryAfter: 1 });
    hook.failNext(503);
    const result = await f.run(await f.config([urlDigest()]), "daily", env());
    expect(result.code, result.stderr).toBe(0);
    expect(teams.requests.map((r) => r.status)).toEqual([429, 202]);
    expect(hook.requests.map((r) => r.status)).toEqual([503, 200]);
    expect(teams.cards).toHaveLength(1);
    expect(hook.keys).toEqual([KEY]);
  });

  it("ends a deleted workflow as failed, saying how to fix it, and still delivers the webhook", async () => {
    teams.deleteWorkflow();
    try {
      const path = await f.config([urlDigest()]);
      const result = await f.run(path, "daily", env());
      expect(result.code).toBe(1);
      const said = result.stdout + result.stderr;
      expect(said).toContain("was deleted or its URL changed");
      expect(said).toContain("msteams.webhook_url");
      expectNoSecrets(said);
      expect(teams.requests).toHaveLength(1); // not tried again: no retry brings it back
      expect(hook.keys).toEqual([KEY]);
      const history = await f.cli(["history", "--config", path], env());
      expect(history.stdout).toMatch(/msteams:[0-9a-f]{12}\s+failed/);
      expectNoSecrets(history.stdout + history.stderr);
    } finally {
      // The fake has no undelete: the next tests need a live workflow.
      await teams.close();
      teams = await startFakeTeams();
    }
  });

  it("writes <key>.teams.json and <key>.webhook.json to an outbox, sending nothing", async () => {
    const path = await f.config([urlDigest()]);
    const out = join(path, "..", "outbox-url");
    const result = await f.cli(
      [
        "run",
        "--team",
        "checkout",
        "--digest",
        "daily",
        "--at",
        "2026-11-18T08:00:00Z",
        "--config",
        path,
        "--outbox",
        out,
      ],
      env(),
    );
    expect(result.code, result.stderr).toBe(0);
    const card = JSON.parse(readFileSync(join(out, `${KEY}.teams.json`), "utf8"));
    expect(card.attachments[0].content.version).toBe("1.5");
    const body = JSON.parse(readFileSync(join(out, `${KEY}.webhook.json`), "utf8"));
    expect(webhookBodySchema.parse(body).key).toBe(KEY);
    expect(teams.requests).toEqual([]);
    expect(hook.requests).toEqual([]);
  });
});

describe("check-config --online, for a Teams workflow and a webhook", () => {
  it("checks each URL answers, posting nothing, and names a deleted workflow's fix", async () => {
    const path = await f.config([urlDigest()]);
    const live = await f.cli(["check-config", "--online", "--config", path], env());
    expect(live.code, live.stdout + live.stderr).toBe(0);
    // check-config wraps its lines at the terminal's width.
    const said = live.stdout.replace(/\s+/g, " ");
    expect(said).toMatch(
      /msteams:[0-9a-f]{12} \(checkout\/daily\): answers \(HTTP 405 to a GET; nothing was posted\)/,
    );
    expect(said).toMatch(/webhook:[0-9a-f]{12} \(checkout\/daily\): answers \(HTTP 405/);
    expect([...teams.requests, ...hook.requests].map((r) => r.method)).toEqual(["GET", "GET"]);
    expect(teams.cards).toEqual([]);
    expectNoSecrets(live.stdout + live.stderr);

    teams.deleteWorkflow();
    try {
      const gone = await f.cli(["check-config", "--online", "--config", path], env());
      expect(gone.code).toBe(1);
      expect(gone.stdout.replace(/\s+/g, " ")).toContain("was deleted or its URL changed");
      expectNoSecrets(gone.stdout + gone.stderr);
    } finally {
      await teams.close();
      teams = await startFakeTeams();
    }
  });
});

describe("check-config --online, for the incidents' Teams workflow and webhook", () => {
  it("checks the URLs incidents go to as it checks a digest's, posting nothing", async () => {
    const path = await f.config([{ name: "daily", slack: { channel: "C0123ABCD" } }]);
    const config = parse(readFileSync(path, "utf8"));
    config.incidents = {
      msteams: { webhook_url: "${TEAMS_WEBHOOK_URL}" },
      webhook: { url: hook.url, secret: "${INSIGHTS_WEBHOOK_SECRET}" },
    };
    writeFileSync(path, stringify(config));
    const live = await f.cli(["check-config", "--online", "--config", path], env());
    expect(live.code, live.stdout + live.stderr).toBe(0);
    const said = live.stdout.replace(/\s+/g, " ");
    expect(said).toMatch(
      /msteams:[0-9a-f]{12} \(incidents\): answers \(HTTP 405 to a GET; nothing was posted\)/,
    );
    expect(said).toMatch(/webhook:[0-9a-f]{12} \(incidents\): answers \(HTTP 405/);
    expect([...teams.requests, ...hook.requests].map((r) => r.method)).toEqual(["GET", "GET"]);
    expectNoSecrets(live.stdout + live.stderr);
  });
});

describe("an alert's life in Teams and on the webhook", () => {
  let setup: AlertSetup;
  beforeAll(async () => {
    setup = await startAlertSetup({ today: "2026-11-23", schedule: "0 9 * * *" });
    const config = parse(readFileSync(setup.configPath, "utf8"));
    const alert = config.teams[0].alerts[0];
    delete alert.slack;
    delete alert.email;
    alert.msteams = { webhook_url: "${TEAMS_WEBHOOK_URL}" };
    alert.webhook = { url: "${ALERT_WEBHOOK_URL}", secret: "${ALERT_WEBHOOK_SECRET}" };
    writeFileSync(setup.configPath, stringify(config));
  });
  afterAll(() => setup?.close());

  async function evaluate(day: string) {
    const cli = runCli(
      [
        "alerts",
        "--team",
        "design",
        "--alert",
        "flaky-rate",
        "--at",
        `${day}T08:00:00Z`,
        "--config",
        setup.configPath,
      ],
      {
        ...setup.env,
        TEAMS_WEBHOOK_URL: teams.url,
        ALERT_WEBHOOK_URL: hook.url,
        ALERT_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      },
    );
    const out: string[] = [];
    cli.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    const { code } = await cli.exit;
    return {
      code,
      text: [...out, ...cli.text, ...cli.logs.map((l) => JSON.stringify(l))].join("\n"),
    };
  }

  it("fires, then resolves: a card each with the state, and a signed body each with its transitions", async () => {
    const fired = await evaluate("2026-11-19"); // window Nov 18: 4.2%, warn
    expect(fired.code, fired.text).toBe(0);
    const resolved = await evaluate("2026-11-22"); // window Nov 21: 0.9%, resolved
    expect(resolved.code, resolved.text).toBe(0);
    expectNoSecrets(fired.text + resolved.text);

    const cards = teams.cards.map((c) => JSON.stringify(c.message));
    expect(cards).toHaveLength(2);
    expect(cards[0]).toContain('"style":"warning"');
    expect(cards[0]).toMatch(
      /"text":" flaky rate [\d.]+% — above warn 3%, warn since at least Nov 18 \(first check of this alert\)","color":"warning"/,
    );
    expect(cards[1]).toContain('"style":"good"');
    expect(cards[1]).toMatch(
      /"text":" flaky rate back under 2.5% — resolved after [^"]+","color":"good"/,
    );

    expect(hook.keys).toEqual([
      "design.alert.flaky-rate.2026-11-18",
      "design.alert.flaky-rate.2026-11-21",
    ]);
    const bodies = hook.accepted.map((a) => webhookBodySchema.parse(a.body));
    expect(
      bodies.map((b) =>
        b.kind === "alert" ? b.alert.transitions.map((t) => `${t.kind}:${t.from}->${t.to}`) : [],
      ),
    ).toEqual([["fired:new->warn"], ["resolved:warn->ok"]]);
  });
});
