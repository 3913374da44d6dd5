import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHART_COLOURS } from "../../src/render/charts/chart-spec.js";
import { runCli } from "../daemon/daemon-process.js";
import { countColour, decodePng, pngSize } from "../render/charts/png-pixels.js";
import { type AlertSetup, startAlertSetup } from "./alert-fixture.js";

// An alert with `chart: true`: its fire carries the fired project's flaky rate by day with the
// warn and critical lines, uploaded once into the fire's Slack thread and inline in its mail;
// the evaluations after it (a reply in the thread, a mail that follows) carry none.

let setup: AlertSetup;
beforeAll(async () => {
  setup = await startAlertSetup({ today: "2026-11-23", schedule: "0 9 * * *", chart: true });
});
afterAll(() => setup?.close());

async function evaluate(day: string): Promise<void> {
  const cli = runCli(
    ["alerts", "--team", "design", "--alert", "flaky-rate", "--at", `${day}T08:00:00Z`].concat([
      "--config",
      setup.configPath,
    ]),
    setup.env,
  );
  const out: string[] = [];
  cli.child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  cli.child.stderr?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const { code } = await cli.exit;
  expect(code, out.join("")).toBe(0);
}

describe("an alert fire with its chart", () => {
  it("uploads the fired project's chart into the fire's thread, once", async () => {
    await evaluate("2026-11-19"); // window Nov 18: 4.2%, fires
    expect(setup.slack.posts).toHaveLength(1);
    const [post] = setup.slack.posts;
    expect(setup.slack.uploads).toHaveLength(1);
    const [upload] = setup.slack.uploads;
    expect(upload?.thread_ts).toBe(post?.ts);
    expect(upload?.filename).toMatch(/^alert-.+-flaky-rate\.png$/);
    const bytes = upload?.bytes ?? Buffer.alloc(0);
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 520 });
    // The warn (orange) and critical (vermillion) lines are drawn.
    const pixels = decodePng(bytes);
    expect(countColour(pixels, CHART_COLOURS.warn, {}, 20)).toBeGreaterThan(200);
    expect(countColour(pixels, CHART_COLOURS.critical, {}, 20)).toBeGreaterThan(200);

    // The same evaluation again (a restart, a second run): nothing posted or uploaded again.
    await evaluate("2026-11-19");
    expect(setup.slack.posts).toHaveLength(1);
    expect(setup.slack.uploads).toHaveLength(1);
  });

  it("shows the chart inline in the fire's mail, its words in the plain text", async () => {
    expect(setup.smtp.messages).toHaveLength(1);
    const raw = setup.smtp.messages[0]?.raw ?? Buffer.alloc(0);
    // mailparser swaps cid: links for data: URLs unless told to keep them.
    const mail = await simpleParser(raw, { keepCidLinks: true });
    const images = mail.attachments.filter((a) => a.contentType === "image/png");
    expect(images).toHaveLength(1);
    const cid = images[0]?.cid ?? "";
    expect(cid).not.toBe("");
    expect(String(mail.html)).toContain(`src="cid:${cid}"`);
    expect(pngSize(images[0]?.content ?? Buffer.alloc(0))).toEqual({ width: 1200, height: 520 });
    expect(mail.text).toMatch(/Chart:\n {2}Flaky rate · .+ by day, /);
  });

  it("carries no chart in the evaluations that follow the fire", async () => {
    await evaluate("2026-11-20"); // window Nov 19: 7.5%, escalates (a reply in the thread)
    expect(setup.slack.posts.length).toBeGreaterThan(1);
    expect(setup.slack.uploads).toHaveLength(1);
    const later = setup.smtp.messages.at(-1)?.parsed;
    expect(setup.smtp.messages.length).toBeGreaterThan(1);
    expect((later?.attachments ?? []).filter((a) => a.contentType === "image/png")).toHaveLength(0);
  });
});
