import { describe, expect, it } from "vitest";
import { renderTeamStatus } from "../../src/slack-app/slack-command-status.js";
import type { AlertState } from "../../src/state/ledger.js";
import type { Silence } from "../../src/state/silences.js";
import { aTeam } from "../daemon/daemon-harness.js";

const NOW = new Date("2026-11-25T08:00:00.000Z");
const HOSTILE = "<!here> *Pay* https://pay.example.com www.pay.io";

const firing: AlertState = {
  team: "checkout",
  alert: "flaky",
  scope: "p1",
  state: "critical",
  since: NOW,
  breaches: 1,
  lastValue: 7.2,
  lastNotifiedAt: NOW,
  firedAt: NOW,
  threadKey: null,
  updatedAt: NOW,
};

const silence: Silence = {
  id: 3,
  team: "checkout",
  alert: "flaky",
  scope: "p1",
  author: `cli:${HOSTILE}`,
  startsAt: NOW,
  endsAt: new Date("2026-11-26T08:00:00.000Z"),
  createdAt: NOW,
  endedAt: null,
  endedBy: null,
};

describe("/insights status answer", () => {
  it("shows a hostile project name and silence author as text: no ping, no link, no bold", () => {
    const team = aTeam({
      projects: [{ id: "p1", name: HOSTILE, branch: null, author: null, tags: [], owners: [] }],
    });
    const answer = renderTeamStatus(team, [firing], [silence], NOW);
    expect(answer).not.toContain("<!here>");
    expect(answer).not.toMatch(/https:\/\/|pay\.example\.com|www\.pay\.io/);
    expect(answer).not.toContain("*Pay*");
    expect(answer).toContain(
      "&lt;!here&gt; \u2217Pay\u2217 https:\u2060//pay.\u2060example.\u2060com",
    );
  });
});
