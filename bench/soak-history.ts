import type { ExpectedSlot } from "./soak-plan.js";
import type { Row } from "./soak-report.js";

// The ledger's word on the soak, read as an operator would: the `history` table. Columns are
// padded to their widest cell, so each is cut at its header's offset.

/** Each slot's destination states, in table order (`sent`, `failed, retry …`, …). */
export function historyStates(table: string): Map<string, string[]> {
  const [header = "", ...lines] = table.split("\n");
  const [slotAt, destinationAt, stateAt, triesAt] = ["SLOT", "DESTINATION", "STATE", "TRIES"].map(
    (name) => header.indexOf(name),
  ) as [number, number, number, number];
  const states = new Map<string, string[]>();
  if ([slotAt, destinationAt, stateAt, triesAt].includes(-1)) return states;
  let slot = "";
  for (const line of lines) {
    if (line.trim() === "") continue;
    slot = line.slice(slotAt, destinationAt).trim() || slot;
    states.set(slot, [...(states.get(slot) ?? []), line.slice(stateAt, triesAt).trim()]);
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
