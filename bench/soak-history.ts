import type { ExpectedSlot } from "./soak-plan.js";
import type { Row } from "./soak-report.js";

// The ledger's word on the soak, read as an operator would: the `history` table
// (src/commands/history-table.ts). A line per fire, its slot key last; under it a line per
// destination, indented: its name, state and tries, columns two spaces or more apart. Notes and
// errors are indented further, and a long destination list goes on over lines with only names.

/** A destination's line: indented once; its name, state (`sent`, `failed, retry …`) and tries. */
const DESTINATION_LINE = /^ {2}\S.*?\s{2,}(\S.*?)\s{2,}\d+ tr(?:y|ies)$/;

/** Each slot's destination states, in table order (`sent`, `failed, retry …`, …). */
export function historyStates(table: string): Map<string, string[]> {
  const states = new Map<string, string[]>();
  let slot: string[] | null = null;
  // The first line is the heading (FIRED (zone), SLOT).
  for (const line of table.split("\n").slice(1)) {
    if (line.trim() === "") continue;
    if (!line.startsWith(" ")) {
      slot = [];
      states.set(line.trim().split(/\s+/).at(-1) ?? "", slot);
      continue;
    }
    const state = DESTINATION_LINE.exec(line)?.[1];
    if (state !== undefined) slot?.push(state);
  }
  return states;
}

/** The row: every expected slot in the ledger with both its destinations sent. */
export function historyRow(expected: readonly ExpectedSlot[], table: string): Row {
  const states = historyStates(table);
  const wrong = expected.filter((slot) => {
    const got = states.get(slot.key) ?? [];
    return got.length !== 2 || got.some((state) => state !== "sent");
  });
  return {
    figure: "the ledger (`history`): every slot recorded, each of its 2 destinations sent",
    target: "all",
    measured: `${expected.length - wrong.length} of ${expected.length}${wrong.length ? `; not: ${wrong.map((s) => `${s.key} (${(states.get(s.key) ?? ["absent"]).join(", ")})`).join("; ")}` : ""}`,
    ok: wrong.length === 0,
  };
}
