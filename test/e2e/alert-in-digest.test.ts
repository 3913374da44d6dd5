import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../daemon/daemon-process.js";
import { cell, loadWorkbook, records, sheet } from "../render/workbook-read.js";
import { type AlertSetup, startAlertSetup } from "./alert-fixture.js";

// A team's digest shows the alerts firing for it first, and its workbook lists the alert
// evaluations of its period — read from the ledger the alerts recorded.

let setup: AlertSetup;
beforeAll(async () => {
  setup = await startAlertSetup({ today: "2026-11-23", schedule: "0 9 * * *", digest: true });
});
afterAll(() => setup?.close());

async function cli(args: string[]): Promise<number | null> {
  const child = runCli([...args, "--config", setup.configPath], setup.env);
  return (await child.exit).code;
}

describe("alerts in the team's digest", () => {
  it("come first in the message, and the workbook's Alerts sheet lists the period's evaluations", async () => {
    const alerts = ["alerts", "--team", "design", "--alert", "flaky-rate"];
    expect(await cli([...alerts, "--at", "2026-11-19T08:00:00Z"])).toBe(0); // fires: warn
    expect(await cli([...alerts, "--at", "2026-11-20T08:00:00Z"])).toBe(0); // escalates: critical
    expect(
      await cli(["run", "--team", "design", "--digest", "daily", "--at", "2026-11-20T08:00:00Z"]),
    ).toBe(0);

    const digest = setup.slack.posts.find((p) => p.metadata?.event_type === "insights_digest");
    const blocks = (digest?.blocks ?? []) as { type: string; text?: { text: string } }[];
    // The first block is the news; the firing alert is in it, in words.
    expect(blocks[0]?.text?.text).toMatch(/flaky rate \d+\.\d% \u2014 above critical \d/);
    expect(digest?.text).toMatch(/flaky rate \d+\.\d% \u2014 above critical \d/);

    const [upload] = setup.slack.uploads;
    const book = await loadWorkbook(upload?.bytes ?? Buffer.alloc(0));
    const rows = records(sheet(book, "Alerts"));
    expect(rows.map((r) => [cell(r, "State").value, cell(r, "Note").value])).toEqual([
      ["critical", "2026-11-19 · escalated"],
    ]);
  });

  it("run --outbox and preview show the message the real post carried, the firing alert included", async () => {
    const digest = setup.slack.posts.find((p) => p.metadata?.event_type === "insights_digest");
    const outbox = await mkdtemp(join(tmpdir(), "outbox-"));
    try {
      const slot = ["run", "--team", "design", "--digest", "daily", "--at", "2026-11-20T08:00:00Z"];
      expect(await cli([...slot, "--outbox", outbox])).toBe(0);
      const file = join(outbox, `${digest?.metadata?.event_payload.key}.slack.json`);
      const written = JSON.parse(await readFile(file, "utf8"));
      expect(written.text).toBe(digest?.text);
      expect(written.blocks).toEqual(digest?.blocks);
    } finally {
      await rm(outbox, { recursive: true, force: true });
    }
    const preview = runCli(
      [
        "preview",
        "--team",
        "design",
        "--digest",
        "daily",
        "--at",
        "2026-11-20T08:00:00Z",
        "--config",
        setup.configPath,
      ],
      setup.env,
    );
    const out: string[] = [];
    preview.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    expect((await preview.exit).code).toBe(0);
    expect(out.join("").split("\n").slice(0, 3).join("\n")).toMatch(
      /flaky rate \d+\.\d% \u2014 above critical \d/,
    );
  });
});
