import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import { silencesCommand, unsilenceCommand } from "../../src/commands/silences-command.js";
import { UsageError } from "../../src/errors.js";
import type { NewSilence } from "../../src/state/silences.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { configText } from "../config/config-builders.js";
import { showInTerminal } from "../render/xterm-screen.js";

// `alerts --silences` and `alerts --unsilence ID` over a real SQLite ledger in a temp dir.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date("2026-11-25T10:00:00.000Z");
const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000);

function aSilence(key: string, overrides: Partial<NewSilence> = {}): NewSilence {
  return {
    key,
    team: "checkout",
    alert: "flaky-rate",
    scope: "pdqmxlz",
    author: "U0MARIA",
    startsAt: NOW,
    endsAt: at(24),
    ...overrides,
  };
}

/** A config whose ledger is in a fresh temp dir, with `silences` added to it. */
async function setUp(silences: NewSilence[]) {
  const dir = mkdtempSync(join(tmpdir(), "silences-command-"));
  dirs.push(dir);
  const ledgerPath = join(dir, "ledger.sqlite");
  const configPath = join(dir, "reporter.yaml");
  writeFileSync(configPath, configText({ "state.path": ledgerPath }));
  const ledger = openLedger(ledgerPath);
  const ids: number[] = [];
  for (const silence of silences) ids.push((await ledger.addSilence(silence, at(-1))).silence.id);
  await ledger.close();
  const lines: string[] = [];
  return { configPath, ledgerPath, ids, lines, out: (line: string) => lines.push(line) };
}

describe("alerts --silences", () => {
  it("lists the silences that hold now or start later, by team, not those over", async () => {
    const { configPath, ids, lines, out } = await setUp([
      aSilence("a"),
      aSilence("b", { startsAt: at(2), endsAt: at(3), scope: "team", author: "cli:ana" }),
      aSilence("over", { startsAt: at(-3), endsAt: at(-1) }),
      aSilence("mobile", { team: "payments" }),
    ]);
    expect(await silencesCommand({ config: configPath, team: "checkout" }, out, NOW)).toBe(0);
    expect(lines).toEqual([
      `#${ids[0]}  checkout/flaky-rate  pdqmxlz  by U0MARIA`,
      "    until 2026-11-26 10:00 UTC",
      `#${ids[1]}  checkout/flaky-rate  team  by cli:ana`,
      "    from 2026-11-25 12:00 UTC until 2026-11-25 13:00 UTC",
    ]);
    lines.length = 0;
    await silencesCommand({ config: configPath }, out, NOW);
    expect(lines.filter((l) => l.startsWith("#"))).toHaveLength(3);
  });

  it("with --all lists past silences too: run out, or ended early and by whom", async () => {
    const { configPath, ledgerPath, ids, lines, out } = await setUp([
      aSilence("over", { startsAt: at(-3), endsAt: at(-1) }),
      aSilence("ended", { startsAt: at(-2) }),
      aSilence("holds"),
    ]);
    const ledger = openLedger(ledgerPath);
    await ledger.endSilence(ids[1] ?? 0, "U0JONAS", at(-1));
    await ledger.close();
    expect(await silencesCommand({ config: configPath, all: true }, out, NOW)).toBe(0);
    expect(lines).toEqual([
      `#${ids[0]}  checkout/flaky-rate  pdqmxlz  by U0MARIA`,
      "    from 2026-11-25 07:00 UTC, ran out 2026-11-25 09:00 UTC",
      `#${ids[1]}  checkout/flaky-rate  pdqmxlz  by U0MARIA`,
      "    from 2026-11-25 08:00 UTC, ended 2026-11-25 09:00 UTC by U0JONAS",
      `#${ids[2]}  checkout/flaky-rate  pdqmxlz  by U0MARIA`,
      "    until 2026-11-26 10:00 UTC",
    ]);
  });

  it.each([80, 120])("fits %i columns, long names broken between words", async (width) => {
    const { configPath, ledgerPath, ids, lines, out } = await setUp([
      aSilence("a", { startsAt: at(-2), alert: "flaky-rate-of-the-checkout-end-to-end-suite" }),
      aSilence("b", { startsAt: at(2), endsAt: at(3), author: "cli:someone-with-a-long-name" }),
    ]);
    const ledger = openLedger(ledgerPath);
    await ledger.endSilence(ids[0] ?? 0, "cli:someone-with-a-long-name", at(-1));
    await ledger.close();
    await silencesCommand({ config: configPath, all: true, width }, out, NOW);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
    const { wrapped } = await showInTerminal(`${lines.join("\n")}\n`, width);
    expect(wrapped).toEqual([]);
    expect(lines.join(" ")).toContain("by cli:someone-with-a-long-name");
  });

  it("says so when there are none", async () => {
    const { configPath, lines, out } = await setUp([]);
    await silencesCommand({ config: configPath }, out, NOW);
    expect(lines).toEqual(["no silences hold now or later"]);
  });
});

describe("alerts --unsilence", () => {
  it("ends a silence now, by the person at the terminal, and it is no longer listed", async () => {
    const { configPath, ledgerPath, ids, lines, out } = await setUp([aSilence("a")]);
    const id = ids[0] ?? 0;
    expect(await unsilenceCommand({ config: configPath, id }, out, NOW, "cli:ana")).toBe(0);
    expect(lines).toEqual([`silence #${id} of checkout/flaky-rate (pdqmxlz) ended by cli:ana`]);
    const ledger = openLedger(ledgerPath);
    try {
      expect(await ledger.silences({})).toMatchObject([{ id, endedAt: NOW, endedBy: "cli:ana" }]);
    } finally {
      await ledger.close();
    }
    lines.length = 0;
    await unsilenceCommand({ config: configPath, id }, out, at(1), "cli:bob");
    expect(lines).toEqual([
      `silence #${id} of checkout/flaky-rate (pdqmxlz) was ended already, at 2026-11-25 10:00 UTC by cli:ana`,
    ]);
  });

  it("refuses an id that is not there, pointing at --silences", async () => {
    const { configPath, ids, out } = await setUp([aSilence("a")]);
    const missing = (ids[0] ?? 0) + 1;
    await expect(unsilenceCommand({ config: configPath, id: missing }, out, NOW)).rejects.toThrow(
      UsageError,
    );
    await expect(unsilenceCommand({ config: configPath, id: missing }, out, NOW)).rejects.toThrow(
      `no silence #${missing}`,
    );
  });
});
