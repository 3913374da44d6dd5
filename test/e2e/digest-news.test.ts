import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RunFixture, startRunFixture, ZONE } from "./cli-run-fixture.js";
import { IDS } from "./e2e-setup.js";
import { countRuns, runsIn } from "./raw-figures.js";

/**
 * What a QA lead must see first and what must not be coloured, end to end: the CLI run against
 * the emulator (9 projects: "Android app" stops on Nov 16, "iOS app" runs a steady Poisson
 * count), posting to the fake Slack and mailing the SMTP server.
 */

let f: RunFixture;
beforeAll(async () => {
  f = await startRunFixture({ projects: 9 });
});
afterAll(async () => {
  await f.close();
});
afterEach(() => {
  f.reset();
});

const SILENT = IDS.androidApp;
const WOBBLY = IDS.iosApp;
const MORE = [{ id: SILENT }, { id: WOBBLY }];
const DIGEST = {
  name: "daily",
  slack: { channel: "C0123ABCD" },
  email: { to: ["qa-leads@example.com"], attach_xlsx: false },
};

function runsOn(id: string, day: string): number {
  const runs = f.emulator.projects.find((p) => p.id === id)?.runs ?? [];
  return countRuns(runsIn(runs, { start: day, end: day }, ZONE, {})).runs;
}

function mainPost() {
  const post = f.slack.posts.find((p) => p.thread_ts === null);
  if (!post) throw new Error("no Slack post");
  return post;
}

describe("a suite that stopped", () => {
  it("is the first news of the Slack message, its notification text and the email", async () => {
    const before = runsOn(SILENT, "2026-11-16");
    expect(before).toBeGreaterThan(0);
    expect(runsOn(SILENT, "2026-11-17")).toBe(0);
    const sentence = `Android app had no runs on Nov 17 (${before} the day before)`;

    const path = await f.config([DIGEST], MORE);
    const result = await f.run(path, "daily");
    expect(result.code, result.stderr).toBe(0);

    const post = mainPost();
    expect(post.text).toContain(`Nov 17, 2026: ${sentence}; `);
    const blocks = post.blocks as { type: string; text?: { text: string } }[];
    expect(blocks[0]?.text?.text.split("\n")[0]).toBe(
      `\u26A0\uFE0F *Android app* had no runs on Nov 17 (${before} the day before)`,
    );
    expect(blocks[1]?.type).toBe("header");
    expect(JSON.stringify(blocks)).toContain("Team figures leave out Android app");

    const mail = f.smtp.messages[0]?.parsed;
    const html = String(mail?.html ?? "");
    expect(html.indexOf(sentence)).toBeGreaterThan(0);
    expect(html.indexOf(sentence)).toBeLessThan(html.indexOf(">Team<"));
    expect(mail?.text?.split("\n")[0]).toBe(`! ${sentence}`);
  });
});

describe("a count that wobbles by chance", () => {
  it("is shown uncoloured as ≈ in Slack and in the email", async () => {
    // Wed Nov 11 against Tue Nov 10: 13 runs after 17, −24%, which a Poisson test calls chance.
    expect([runsOn(WOBBLY, "2026-11-11"), runsOn(WOBBLY, "2026-11-10")]).toEqual([13, 17]);
    const path = await f.config([DIGEST], MORE);
    const at = "2026-11-12T08:00:00Z";
    const result = await f.cli(
      ["run", "--team", "checkout", "--digest", "daily", "--at", at, "--config", path],
      f.env(),
    );
    expect(result.code, result.stderr).toBe(0);

    // Five projects fit in the message: the table has them all, and no thread repeats them.
    expect(f.slack.posts.filter((p) => p.thread_ts !== null)).toEqual([]);
    const table = (mainPost().blocks as { type: string; rows?: { text: string }[][] }[]).find(
      (b) => b.type === "table",
    );
    // The table's columns are the figures that are news (at most four): runs is not one here,
    // so the row shows the run pass rate first, its wobble as uncoloured as the runs' below.
    const row = table?.rows?.find((r) => r[0]?.text === "iOS app")?.map((c) => c.text);
    expect(row?.slice(0, 3)).toEqual(["iOS app", "100.0%", "\u2248 +5.9 pp"]);

    const text = String(f.smtp.messages.at(-1)?.parsed.text ?? "");
    // Runs are not news here, so no table column shows them (the workbook does): the run pass
    // rate's wobble is the one shown, and it is as uncoloured as the runs' would be.
    const line = text.split("\n").find((l) => l.includes("run pass 100.0%")) ?? "";
    expect(line).toContain("run pass 100.0% (\u2248 +5.9 pp)");
    const html = String(f.smtp.messages.at(-1)?.parsed.html ?? "");
    // The project table's row (the news lines above it name the project too).
    const rowAt = html.lastIndexOf("iOS app");
    const cell = html.slice(rowAt, rowAt + 600);
    // Neutral grey, with non-breaking spaces: no red, no green.
    expect(cell).toMatch(/<span style="color:#57606a;">\u2248&nbsp;\+5\.9&nbsp;pp<\/span>/);
    expect(cell).not.toContain("#cf222e");
  });
});

describe("owners of a project with bad news", () => {
  it("are mentioned on its news line in Slack and copied on the email; owners of a quiet project are not", async () => {
    const owners = [
      { id: SILENT, owners: ["U0ANDROID", "android-lead@example.com"] },
      { id: WOBBLY, owners: ["U0IOS", "ios-lead@example.com"] },
    ];
    const path = await f.config([DIGEST], owners);
    const result = await f.run(path, "daily");
    expect(result.code, result.stderr).toBe(0);

    const first = (mainPost().blocks as { text?: { text: string } }[])[0]?.text?.text ?? "";
    expect(first.split("\n")[0]).toMatch(
      /^\u26A0\uFE0F \*Android app\* had no runs .* <@U0ANDROID>$/,
    );
    expect(JSON.stringify(mainPost().blocks)).not.toContain("U0IOS");

    const mail = f.smtp.messages[0];
    const cc = mail?.parsed.cc;
    const copied = (Array.isArray(cc) ? cc : cc ? [cc] : []).flatMap((a) =>
      a.value.map((v) => v.address),
    );
    expect(copied).toEqual(["android-lead@example.com"]);
    expect(mail?.envelope.to).toEqual(["qa-leads@example.com", "android-lead@example.com"]);
  });
});
