import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkMessage } from "../fake-slack/check-message.js";
import { loadWorkbook, sheet } from "../render/workbook-read.js";
import { unwrapLines } from "../support/unwrap-lines.js";
import { tempDir } from "./e2e-setup.js";
import { type CliResult, requireBuiltCli, runCli } from "./run-cli.js";

/**
 * `insights-reporter demo --out DIR`, the README's first command: no credentials, no network,
 * every digest of config/demo.yaml into an outbox and onto the terminal.
 */

interface DemoDigest {
  name: string;
  charts?: { window?: string };
  slack?: { channel: string; attach_xlsx?: boolean };
  email?: { to: string[]; attach_xlsx?: boolean };
}
interface DemoTeam {
  name: string;
  title: string;
  digests: DemoDigest[];
}

const DEMO_YAML = fileURLToPath(new URL("../../config/demo.yaml", import.meta.url));

let dirs: Awaited<ReturnType<typeof tempDir>>;
let result: CliResult;
let out: string;
let teams: DemoTeam[];

beforeAll(async () => {
  requireBuiltCli();
  dirs = await tempDir();
  out = join(dirs.dir, "demo-out");
  // A team may have alerts and no digests (the schema's default is none).
  teams = (parse(await readFile(DEMO_YAML, "utf8")) as { teams: DemoTeam[] }).teams.map((t) => ({
    ...t,
    digests: t.digests ?? [],
  }));
  // No INSIGHTS_*, SLACK_* or SMTP_* variables at all.
  // The demo draws its checkout digests' charts too: on a loaded 2-core machine it has taken
  // over 20 s (vitest's default for a hook).
  result = await runCli(["demo", "--out", out], { cwd: dirs.dir, timeoutMs: 60_000 });
}, 70_000);

afterAll(async () => {
  await dirs.remove();
});

/**
 * The files the demo listed after a digest: one name a line under "→ DIR/"; a name too wide for
 * the terminal goes on, further in, on the next line.
 */
function listedFiles(section: string): string[] {
  const lines = section.split("\n");
  const names: string[] = [];
  for (const line of lines.slice(lines.findIndex((l) => l.startsWith("\u2192 ")) + 1)) {
    if (line.startsWith("    ")) names.push(`${names.pop() ?? ""}${line.trim()}`);
    else if (line.startsWith("  ")) names.push(line.trim());
    else break;
  }
  return names;
}

/** The key the demo printed for a digest: `━━ team / digest ━━ key`. */
function keyOf(team: string, digest: string): string {
  const match = new RegExp(`━━ ${team} / ${digest} ━━ (\\S+)`).exec(result.stdout);
  if (!match?.[1]) throw new Error(`the demo printed no heading for ${team}/${digest}`);
  return match[1];
}

describe("demo", () => {
  it("shows one incident when three projects in two teams break together, and its resolution the next day", async () => {
    const section = result.stdout.split("━━ incidents ━━")[1] ?? "";
    expect(section).toMatch(/🚨 3 projects in 2 teams: flaky rate up — likely shared CI\n/);
    expect(section.match(/^ {6}(ci|partners) \/ flaky-rate: .+$/gm)).toEqual([
      "      ci / flaky-rate: Web E2E 2",
      "      ci / flaky-rate: Checkout API 2",
      "      partners / flaky-rate: Mobile smoke 2",
    ]);
    const [, key] = /✅ resolved (\S+)/.exec(section) ?? [];
    expect(key).toMatch(/^incident\./);
    const post = JSON.parse(
      await readFile(join(out, `${key?.replaceAll(":", "_")}.slack.json`), "utf8"),
    ) as { text: string; thread: unknown[] };
    expect(JSON.stringify(post)).toContain("Incident: 3 projects in 2 teams");
  });

  it("shows an alert firing, escalating, easing and resolving, each change in its own files", async () => {
    const section = result.stdout.split("━━ design / alert flaky-rate ━━")[1] ?? "";
    const changes = [...section.matchAll(/→ Design system: (\S+)/g)].map((m) => m[1]);
    expect(changes).toEqual(["fired", "escalated", "de-escalated", "resolved"]);
    const files = await readdir(out);
    const alertPosts = files.filter((f) =>
      /^design\.alert\.flaky-rate\.[\d-]+\.slack\.json$/.test(f),
    );
    expect(alertPosts).toHaveLength(4);
    // Design's own edits (the demo's incident edits its members' messages too).
    expect(files.filter((f) => f.startsWith("design.") && f.includes(".update."))).toHaveLength(3);
    // The same four changes as Teams cards and signed webhook bodies.
    const named = (suffix: string) =>
      files.filter((f) => f.startsWith("design.alert.flaky-rate.") && f.endsWith(suffix));
    expect(named(".teams.json")).toHaveLength(4);
    expect(named(".webhook.json")).toHaveLength(4);
  });

  it("shows an alert against a project's own normal firing where a fixed threshold stays quiet", () => {
    const section = (alert: string) =>
      (result.stdout.split(`━━ data / alert ${alert} ━━`)[1] ?? "").split("━━")[0] ?? "";
    const regression = section("flaky-regression");
    // The comparison with the normal goes under its row where the two do not fit one line.
    expect(regression).toMatch(
      /Data pipeline +(warn|critical) +\d\.\d%.*\s+· \d\.\d pp above its normal \d\.\d% \(median of the last 4 \w+days\)/,
    );
    expect(regression).toContain("→ Data pipeline: fired");
    expect(section("flaky-fixed")).not.toContain("→ Data pipeline: fired");
    expect(section("slow-runs")).toMatch(
      /Partner portal +(warn|critical) +\d+m \d\ds\s+· \d+% above its normal \d+m \d\ds/,
    );
  });

  it("shows the alert's buttons on the fire's post and its edits while it fires, none once resolved", async () => {
    const files = (await readdir(out)).filter((f) => f.startsWith("design.alert.flaky-rate."));
    const buttons = async (file: string) => {
      const { blocks } = JSON.parse(await readFile(join(out, file), "utf8"));
      const actions = blocks.filter((b: { type: string }) => b.type === "actions");
      return actions.flatMap((b: { elements: { action_id: string }[] }) =>
        b.elements.map((e) => e.action_id),
      );
    };
    const posts = files
      .filter((f) => /^design\.alert\.flaky-rate\.[\d-]+\.slack\.json$/.test(f))
      .sort();
    const edits = files.filter((f) => f.includes(".update.") && f.endsWith(".slack.json")).sort();
    // The fire, then replies in its thread (which carry none).
    expect(await Promise.all(posts.map(buttons))).toEqual([
      ["alert_acknowledge", "alert_snooze"],
      [],
      [],
      [],
    ]);
    // Escalated and eased: still firing; then resolved.
    expect(await Promise.all(edits.map(buttons))).toEqual([
      ["alert_acknowledge", "alert_snooze"],
      ["alert_acknowledge", "alert_snooze"],
      [],
    ]);
  });

  it("says which branch moved the data team's flaky rate (issue 37)", async () => {
    const section = unwrapLines(result.stdout).split("━━ data / rolling-week ━━")[1] ?? "";
    expect(section).toMatch(/Notifications: flaky rate .* \u2014 on release-2\.3 \(/);
    const key = keyOf("data", "rolling-week");
    const body = JSON.parse(await readFile(join(out, `${key}.webhook.json`), "utf8"));
    const dimensions = body.projects[0].slices.map((s: { dimension: string }) => s.dimension);
    expect(dimensions).toEqual(["branch", "author", "tags"]);
  });

  it("writes the checkout daily digest as a Teams card and a webhook body too", async () => {
    const key = keyOf("checkout", "daily");
    const card = JSON.parse(await readFile(join(out, `${key}.teams.json`), "utf8"));
    expect(card.attachments[0].content).toMatchObject({ type: "AdaptiveCard", version: "1.5" });
    const body = JSON.parse(await readFile(join(out, `${key}.webhook.json`), "utf8"));
    expect(body).toMatchObject({ version: 1, kind: "digest", key });
    expect(result.stdout).toContain("*.teams.json");
  });

  it("never opens a digest with No significant change above a red figure: the platform digest names its failed tests", async () => {
    const files = (await readdir(out)).filter(
      (f) => f.endsWith(".slack.json") && !f.includes(".alert."),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const { text, blocks } = JSON.parse(await readFile(join(out, file), "utf8"));
      const first = JSON.stringify(blocks[0]);
      if (JSON.stringify(blocks).includes("\u{1F534}")) {
        expect(first, file).not.toContain("No significant change");
        expect(text, file).not.toContain("No significant change");
      }
    }
    const key = keyOf("platform", "rolling-week");
    const { text, blocks } = JSON.parse(await readFile(join(out, `${key}.slack.json`), "utf8"));
    expect(text).toMatch(/Team: failed tests [\d,]+ \u2192 [\d,]+ \(\+\d+%, worse\)/);
    expect(JSON.stringify(blocks[0])).toContain("failed tests");
  });

  it("exits 0 with nothing on stderr", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(unwrapLines(result.stderr)).toBe("");
    expect(result.stdout).toMatch(/^Every digest of config\/demo\.yaml/);
  });

  it("prints every digest of config/demo.yaml as text, with its team's figures", () => {
    const digests = teams.flatMap((t) => t.digests.map((d) => ({ team: t, digest: d })));
    expect(digests.length).toBeGreaterThanOrEqual(5);
    for (const { team, digest } of digests) {
      const key = keyOf(team.name, digest.name);
      expect(key.startsWith(`${team.name}.${digest.name}.`)).toBe(true);
      const section = result.stdout.split(`━━ ${team.name} / ${digest.name} ━━`)[1] ?? "";
      expect(section).toContain(`${team.title} \u00b7 ${digest.name} \u00b7`);
      expect(section).toMatch(/Run pass rate +\d+\.\d%/);
      expect(section).toMatch(/Flaky rate +\d+\.\d%/);
    }
  });

  it("writes each digest's Slack message, email and workbook, as its destinations say", async () => {
    const files = new Set(await readdir(out));
    for (const team of teams) {
      for (const digest of team.digests) {
        const key = keyOf(team.name, digest.name);
        const [start, end = start] = key.slice(`${team.name}.${digest.name}.`.length).split("_");
        const workbook = `insights-${team.name}-${start}_${end}.xlsx`;
        const section = result.stdout.split(`━━ ${team.name} / ${digest.name} ━━`)[1] ?? "";
        const listed = listedFiles(section);
        if (digest.slack) {
          expect(files, `${key}.slack.json`).toContain(`${key}.slack.json`);
          expect(listed).toContain(`${key}.slack.json`);
          const slack = JSON.parse(await readFile(join(out, `${key}.slack.json`), "utf8"));
          expect(slack.channel).toBe(digest.slack.channel);
          expect(slack.metadata.event_payload.key).toBe(key);
          expect(checkMessage(slack.text, slack.blocks)).toBeNull();
        }
        if (digest.email) {
          expect(files, `${key}.eml`).toContain(`${key}.eml`);
          expect(listed).toContain(`${key}.eml`);
          const mail = await simpleParser(await readFile(join(out, `${key}.eml`)));
          expect(mail.subject).toContain(team.title);
          const downloads = mail.attachments.filter((a) => a.contentId === undefined);
          expect(downloads.length).toBe(digest.email.attach_xlsx === false ? 0 : 1);
          // Inline, every chart the digest drew: the team's two, and two for each project its
          // news names, which the emulator's days for today decide (so not a fixed number).
          const drawn = [...files].filter((f) => f.startsWith(`${key}.`) && f.endsWith(".png"));
          const inline = mail.attachments.filter((a) => a.contentId !== undefined);
          expect(inline.length).toBe(drawn.length);
          expect(inline.every((a) => a.contentType === "image/png")).toBe(true);
        }
        if (digest.charts) {
          for (const chart of ["team-rates"]) {
            expect(files, chart).toContain(`${key}.${chart}.png`);
            expect(listed).toContain(`${key}.${chart}.png`);
          }
        }
        // attach_xlsx defaults to true for email, false for Slack.
        const needsWorkbook =
          digest.slack?.attach_xlsx === true ||
          (digest.email !== undefined && digest.email.attach_xlsx !== false);
        if (needsWorkbook) {
          expect(files, workbook).toContain(workbook);
          expect(listed).toContain(workbook);
          const book = await loadWorkbook(await readFile(join(out, workbook)));
          expect(sheet(book, "Summary").rowCount).toBeGreaterThan(1);
        }
      }
    }
    // Nothing but what the digests asked for.
    for (const file of files)
      expect(file).toMatch(/\.(slack\.json|teams\.json|webhook\.json|eml|xlsx|png)$/);
    expect(result.stdout).toContain(`Wrote ${files.size} files to ${out}/`);
  });
});
