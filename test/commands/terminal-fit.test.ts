import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { checkConfigCommand } from "../../src/commands/check-config.js";
import { formatHistory } from "../../src/commands/history-table.js";
import { projectLines } from "../../src/commands/projects-command.js";
import { parseConfigText } from "../../src/config/load-config.js";
import type { InsightsApi } from "../../src/insights/types.js";
import type { SlotWithDeliveries } from "../../src/state/ledger.js";
import { configText, fullEnv } from "../config/config-builders.js";
import { showInTerminal } from "../render/xterm-screen.js";

// `check-config`, `history` and `projects` at 80 and 120 columns, with the longest lines they
// print (notes, coverage warnings, a workspace's project ids, an email list, an error, a
// project's name from the API) and wide characters:
// every line fits by string-width's count, and a real terminal wraps none of them.

const NOW = new Date("2026-10-23T12:00:00Z");

/** A config whose lines run long: a CJK title, a channel by name, Tokyo's fires past midnight UTC. */
function longConfig() {
  const text = configText({
    "teams[0].title": "品質保証チーム・決済とモバイルの毎週のテスト結果まとめ 🚀",
    "teams[0].digests[0].slack.channel": "#qa-決済-notifications",
    "teams[0].digests[0].period": "since_previous_run",
    "teams[1].timezone": "Asia/Tokyo",
    "teams[1].digests[0].schedule": "0 8 * * 1",
    "teams[1].digests[0].period": "previous_week",
  });
  return parseConfigText(text, "reporter.yaml", { env: fullEnv() });
}

/** A workspace of many projects, none of which the config's payments team lists. */
const manyProjects: InsightsApi = {
  listProjects: async () =>
    Array.from({ length: 25 }, (_, i) => ({
      id: `prj${String(i).padStart(4, "0")}`,
      name: `チーム ${i} E2E`,
    })),
  getInsights: async () => {
    throw new Error("check-config never fetches insights");
  },
};

async function checkConfigAt(width: number): Promise<string[]> {
  const lines: string[] = [];
  await checkConfigCommand(
    { config: longConfig(), now: NOW, width, online: { api: manyProjects } },
    (line) => lines.push(line),
  );
  return lines;
}

const EMAILS = Array.from({ length: 5 }, (_, i) => `qa-team-${i}@example.com`).join(",");
const ERROR =
  "554 5.7.1 メッセージは拒否されました: the sending domain has no SPF record allowing this relay — ask the mail admin";

function historyAt(width: number): string[] {
  const slot: SlotWithDeliveries = {
    key: "checkout.weekly.2026-11-09..2026-11-15",
    team: "checkout",
    kind: "digest",
    job: "weekly",
    fireAt: new Date("2026-11-16T08:00:00Z"),
    period: { start: "2026-11-09", end: "2026-11-15" },
    createdAt: new Date("2026-11-16T08:00:01Z"),
    finishedAt: null,
    deliveries: [
      {
        destination: `email:${EMAILS}`,
        state: "failed",
        attempts: 3,
        lastError: ERROR,
        nextAttemptAt: new Date("2026-11-16T09:00:00Z"),
        ref: null,
        updatedAt: new Date("2026-11-16T08:10:00Z"),
        claimedBy: null,
        claim: 3,
        claimedAt: null,
      },
    ],
  };
  return formatHistory([slot], { zone: "Asia/Tokyo", width });
}

/** A workspace's projects as the API names them: one name longer than any terminal line. */
const PROJECTS = [
  { id: "dlucmsz", name: "Web E2E" },
  {
    id: "azenvfq",
    name: "決済 API — checkout, payments and refunds end-to-end suite (nightly, all regions, staging and production mirrors)",
  },
];

/** The words of some lines, in order: what a reader gets, however the lines were broken. */
const words = (lines: readonly string[]) => lines.join(" ").split(/\s+/).filter(Boolean);

describe.each([80, 120])("at %i columns", (width) => {
  it("check-config fits: no line wider, none wrapped by the terminal, no word cut", async () => {
    const lines = await checkConfigAt(width);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
    const { wrapped } = await showInTerminal(`${lines.join("\n")}\n`, width);
    expect(wrapped).toEqual([]);
    // Broken only between words: the same words as with all the room in the world.
    expect(words(lines)).toEqual(words(await checkConfigAt(10_000)));
    // One fire per line, each with the days it covers.
    const fires = lines.filter((l) => /^ {4}(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-/.test(l));
    expect(fires).toHaveLength(9);
    for (const fire of fires) expect(fire.match(/ UTC\)/g)).toHaveLength(1);
  });

  it("history fits: no line wider, none wrapped by the terminal, no word cut", async () => {
    const lines = historyAt(width);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
    const { wrapped } = await showInTerminal(`${lines.join("\n")}\n`, width);
    expect(wrapped).toEqual([]);
    // Broken only where a reader expects it: the email list after its commas, the error
    // between words.
    const delivery = lines.slice(2).filter((l) => !l.startsWith("    "));
    expect(delivery.map((l) => l.trim().split(/\s+/)[0]).join("")).toBe(`email:${EMAILS}`);
    const error = lines.slice(2 + delivery.length);
    expect(words(error)).toEqual(words([`last error: ${ERROR}`]));
  });

  it("projects fits: a long name goes on under the name column, no word cut", async () => {
    const lines = projectLines(PROJECTS, width);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
    const { wrapped } = await showInTerminal(`${lines.join("\n")}\n`, width);
    expect(wrapped).toEqual([]);
    expect(words(lines)).toEqual(words(projectLines(PROJECTS, 10_000)));
    // Every line after a project's first is under its name: the ids column stays the ids.
    const ids = lines
      .slice(1)
      .map((line) => line.slice(0, 7).trim())
      .filter(Boolean);
    expect(ids).toEqual(["dlucmsz", "azenvfq"]);
  });
});
