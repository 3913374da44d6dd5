import { describe, expect, it } from "vitest";
import type { ScopeState, ScopeWindow } from "../../../../src/alerts/types.js";
import {
  messageBytes,
  TEAMS_CARD_BYTES,
} from "../../../../src/destinations/msteams/messages/card-parts.js";
import { renderTeamsAlert } from "../../../../src/destinations/msteams/messages/teams-alert.js";
import { renderTeamsDigest } from "../../../../src/destinations/msteams/messages/teams-digest.js";
import type { TeamsMessage } from "../../../../src/messages.js";
import { digestNews, NO_NEWS, newsSentence } from "../../../../src/render/digest-news.js";
import { counts } from "../../../alerts/alert-builders.js";
import { cardProblems } from "../../../fake-webhooks/check-card.js";
import { alertInput } from "../../../render/alert-input.js";
import { checkoutReport, manyProjectsReport, quietTotal } from "../../../render/report-fixture.js";

const NOW = "2026-11-19T08:00:00.000Z";

/** Every string in the card with where it sits: the element type holding it and its key. */
function strings(
  value: unknown,
  holder = "",
  out: { holder: string; key: string; text: string }[] = [],
) {
  if (Array.isArray(value)) for (const item of value) strings(item, holder, out);
  else if (typeof value === "object" && value !== null) {
    const type = (value as { type?: unknown }).type;
    const here = typeof type === "string" ? type : holder;
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === "string") out.push({ holder: here, key, text: inner });
      else strings(inner, here, out);
    }
  }
  return out;
}

const card = (message: TeamsMessage) => message.attachments[0].content;
/** The text a reader sees in one element: its runs joined. */
const runsOf = (element: unknown) =>
  strings(element)
    .filter((s) => s.holder === "TextRun" && s.key === "text")
    .map((s) => s.text)
    .join("");

describe("a digest as a Teams card", () => {
  it("is a valid Adaptive Card 1.5 in the Workflows message envelope", () => {
    const message = renderTeamsDigest(checkoutReport());
    expect(message.type).toBe("message");
    expect(message.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(card(message).version).toBe("1.5");
    expect(cardProblems(JSON.stringify(message))).toEqual([]);
  });

  it("opens with the digest's news, in the news model's order and words", () => {
    const report = checkoutReport();
    const news = digestNews(report);
    expect(news.lines.length).toBeGreaterThan(3);
    const body = card(renderTeamsDigest(report)).body;
    for (const [i, line] of news.shown.entries()) {
      expect(runsOf(body[i])).toContain(newsSentence(line));
    }
    expect(runsOf(body[3])).toContain(`and ${news.more} more`);
    // The lines that did not fit at the top come lower down, every one of them.
    const all = runsOf(body);
    for (const line of news.lines.slice(3)) expect(all).toContain(newsSentence(line));
  });

  it("says `No significant change` and the two headline figures on a quiet day", () => {
    const report = quietTotal(checkoutReport({ alerts: [], projects: [] }));
    const first = runsOf(card(renderTeamsDigest(report)).body[0]);
    expect(first.startsWith(NO_NEWS)).toBe(true);
    expect(first).toContain(digestNews(report).figures);
  });

  it("colours a worse change red and a better one green, and leaves noise uncoloured", () => {
    const table = JSON.stringify(
      card(renderTeamsDigest(checkoutReport())).body.find((e) => e.type === "Table"),
    );
    expect(table).toContain('"text":"↑ +1.1 pp","weight":"bolder","color":"attention"');
    expect(table).toContain('"text":"≈ +0.2 pp","isSubtle":true');
    const projects = JSON.stringify(card(renderTeamsDigest(checkoutReport())).body);
    expect(projects).toContain('"text":"↑ +2.1 pp","weight":"bolder","color":"good"');
  });

  it("puts names from the API and config only into TextRuns, where no Markdown, link or mention can come of them", () => {
    const hostile = "**Pwn** [click](https://evil.example) <at>everyone</at> _x_";
    const report = checkoutReport();
    report.team.title = hostile;
    report.projects = report.projects.map((p) => ({ ...p, name: `${hostile} ${p.projectId}` }));
    const message = renderTeamsDigest(report);
    const holders = strings(card(message).body)
      .filter((s) => s.text.includes("**Pwn**"))
      .map((s) => `${s.holder}.${s.key}`);
    expect(holders.length).toBeGreaterThan(5);
    expect(new Set(holders)).toEqual(new Set(["TextRun.text"]));
    // The one link a name may carry is its own dashboard's, as a TextRun's action.
    const urls = strings(card(message))
      .filter((s) => s.key === "url")
      .map((s) => s.text);
    expect(urls.every((u) => u.startsWith("https://insights.example.com/"))).toBe(true);
    expect(JSON.stringify(message)).not.toContain("entities");
    expect(cardProblems(JSON.stringify(message))).toEqual([]);
  });

  it("stays within Teams' 28 KB by listing fewer projects, and says how many more and where", () => {
    const report = manyProjectsReport(300);
    const available = report.projects.filter((p) => p.status === "ok").length;
    const options = { workbookWhere: "in the workbook mailed to qa-leads@example.com" };
    const message = renderTeamsDigest(report, { ...options, maxProjects: 300 });
    const bytes = messageBytes(message);
    expect(bytes).toBeLessThanOrEqual(TEAMS_CARD_BYTES);
    expect(bytes).toBeGreaterThan(TEAMS_CARD_BYTES / 4);
    const [, table] = card(message).body.filter((e) => e.type === "Table");
    const listed = (table?.rows as unknown[] | undefined)?.length ?? 0;
    expect(listed - 2).toBeGreaterThan(10); // less the header and the team's rows
    expect(listed - 2).toBeLessThan(available);
    // As many as fit: asked for one more than it listed, it lists the same.
    const more = renderTeamsDigest(report, { ...options, maxProjects: listed - 1 });
    expect(more).toEqual(message);
    const text = runsOf(card(message).body);
    expect(text).toContain(
      `${available - (listed - 2)} more projects not listed here: every project is in the workbook mailed to qa-leads@example.com`,
    );
  });
});

describe("an alert as a Teams card", () => {
  const window = (scope: string, name: string, percent: number): ScopeWindow => ({
    scope,
    name,
    current: counts(percent, 5_000),
    prior: counts(1, 5_000),
    daily: [counts(1, 5_000), counts(percent, 5_000)],
  });
  const input = (windows: ScopeWindow[], states = new Map<string, ScopeState>()) =>
    alertInput(windows, { states });

  it("a fire shows each scope's state, in a red band for critical", () => {
    const message = renderTeamsAlert(input([window("p1", "Web <at>x</at>", 8)]), NOW);
    expect(cardProblems(JSON.stringify(message))).toEqual([]);
    const [band] = card(message).body;
    expect(band).toMatchObject({ type: "Container", style: "attention" });
    const text = runsOf(card(message).body);
    expect(text).toContain("Fired");
    expect(text).toContain("Web <at>x</at> flaky rate 8.0% — above critical 5%");
    expect(card(message).fallbackText).toContain(
      "Checkout · flaky: Web <at>x</at> flaky rate 8.0%",
    );
  });

  it("a resolution is green and says the scope resolved", () => {
    const firing: ScopeState = {
      scope: "p1",
      state: "warn",
      since: "2026-11-18T08:00:00.000Z",
      breaches: 1,
      lastValue: 4,
      lastNotifiedAt: "2026-11-18T08:00:00.000Z",
      firedAt: "2026-11-17T08:00:00.000Z",
      threadKey: "t.alert.flaky.2026-11-16",
    };
    const message = renderTeamsAlert(
      input([window("p1", "Web", 1)], new Map([["p1", firing]])),
      NOW,
    );
    expect(card(message).body[0]).toMatchObject({ style: "good" });
    expect(runsOf(card(message).body)).toContain(
      "Web flaky rate back under 2.5% — resolved after 2 days",
    );
  });

  it("stays within 28 KB when many scopes change at once, counting the ones it leaves out", () => {
    const name = (i: number) => `Project ${i} with a long descriptive name for the card`;
    const firing = (scope: string): ScopeState => ({
      scope,
      state: "warn",
      since: "2026-11-17T08:00:00.000Z",
      breaches: 1,
      lastValue: 4,
      lastNotifiedAt: "2026-11-17T08:00:00.000Z",
      firedAt: "2026-11-17T08:00:00.000Z",
      threadKey: "t.alert.flaky.2026-11-16",
    });
    const fired = Array.from({ length: 60 }, (_, i) => window(`f${i}`, name(i), 8));
    const resolved = Array.from({ length: 60 }, (_, i) => window(`r${i}`, name(i), 1));
    const states = new Map(resolved.map((w) => [w.scope, firing(w.scope)]));
    const message = renderTeamsAlert(input([...fired, ...resolved], states), NOW);
    expect(messageBytes(message)).toBeLessThanOrEqual(TEAMS_CARD_BYTES);
    expect(cardProblems(JSON.stringify(message))).toEqual([]);
    const text = runsOf(card(message).body);
    expect(text).toContain("Fired");
    expect(text).toContain("Resolved");
    expect(text).toMatch(/… and \d+ more/);
  });
});
