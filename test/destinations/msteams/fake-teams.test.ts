import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderTeamsDigest } from "../../../src/destinations/msteams/messages/teams-digest.js";
import { type FakeTeams, startFakeTeams } from "../../fake-webhooks/fake-teams.js";
import { checkoutReport } from "../../render/report-fixture.js";

// The fake Teams workflow refuses what Teams refuses, so a test that passes through it has
// sent something Teams would show.

let teams: FakeTeams;
beforeEach(async () => {
  teams = await startFakeTeams();
});
afterEach(() => teams.close());

const post = (body: unknown, url = teams.url) =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("the fake Teams workflow", () => {
  it("takes a digest card with 202 and keeps it", async () => {
    const message = renderTeamsDigest(checkoutReport());
    expect((await post(message)).status).toBe(202);
    expect(teams.cards).toHaveLength(1);
    expect(teams.cards[0]?.message).toEqual(message);
  });

  it("refuses a card Teams could not render, naming each problem", async () => {
    const message = renderTeamsDigest(checkoutReport());
    const content = message.attachments[0].content as unknown as Record<string, unknown>;
    content.version = "1.6";
    content.body = [
      { type: "Carousel" },
      { type: "TextBlock" },
      {
        type: "Table",
        columns: [{}],
        rows: [
          {
            type: "TableRow",
            cells: [
              { type: "TableCell", items: [] },
              { type: "TableCell", items: [] },
            ],
          },
        ],
      },
    ];
    const answer = await post(message);
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { message: string } };
    expect(error.message.split("; ")).toEqual([
      'attachments[0].content.version: "1.6" (Teams renders 1.0 to 1.5)',
      'attachments[0].content.body[0].type: unknown element "Carousel"',
      "attachments[0].content.body[1].text: required string",
      "attachments[0].content.body[2].rows[0].cells: 2 > 1 columns",
    ]);
    expect(teams.cards).toEqual([]);
  });

  it("answers 413 over 28 KB, 404 once deleted, 401 to a wrong sig, 405 to a GET", async () => {
    const big = renderTeamsDigest(checkoutReport());
    big.attachments[0].content.fallbackText = "x".repeat(29 * 1024);
    expect((await post(big)).status).toBe(413);
    expect(
      (await post(renderTeamsDigest(checkoutReport()), teams.url.replace(/sig=[^&]+/, "sig=nope")))
        .status,
    ).toBe(401);
    expect((await fetch(teams.url)).status).toBe(405);
    teams.deleteWorkflow();
    expect((await post(renderTeamsDigest(checkoutReport()))).status).toBe(404);
    expect(teams.cards).toEqual([]);
  });

  it("fails on demand with 429 and Retry-After, then takes the next", async () => {
    teams.failNext(429, { retryAfter: 7 });
    const first = await post(renderTeamsDigest(checkoutReport()));
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("7");
    expect((await post(renderTeamsDigest(checkoutReport()))).status).toBe(202);
    expect(teams.requests.map((r) => r.status)).toEqual([429, 202]);
  });

  it("holds a request it has taken: the card is in, the answer not sent", async () => {
    const held = teams.holdNext();
    const answer = post(renderTeamsDigest(checkoutReport()));
    await held.arrived;
    expect(teams.cards).toHaveLength(1);
    held.release();
    expect((await answer).status).toBe(202);
  });
});
