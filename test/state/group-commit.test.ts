import { afterEach, describe, expect, it, vi } from "vitest";
import { groupCommit } from "../../src/state/sqlite/group-commit.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A group commit over a log of the batches committed; `refuse` fails any batch holding it. */
function logged(refuse?: string) {
  const batches: string[][] = [];
  let clock = 0;
  const group = groupCommit<string>(
    (items) => {
      if (refuse !== undefined && items.includes(refuse)) throw new Error(`refused ${refuse}`);
      batches.push([...items]);
    },
    { gatherMs: 20, now: () => clock },
  );
  return { group, batches, advance: (ms: number) => (clock += ms) };
}

describe("groupCommit", () => {
  it("commits the writes of one turn as one batch", async () => {
    const { group, batches } = logged();
    await Promise.all([group.add("a"), group.add("b"), group.add("c")]);
    expect(batches).toEqual([["a", "b", "c"]]);
  });

  it("commits a write after a quiet spell on the next turn, and gathers the writes that follow a commit", async () => {
    vi.useFakeTimers();
    const { group, batches, advance } = logged();
    const first = group.add("a");
    await vi.advanceTimersByTimeAsync(1);
    await first;
    expect(batches).toEqual([["a"]]);
    advance(5);
    const burst = [group.add("b")];
    await vi.advanceTimersByTimeAsync(10);
    burst.push(group.add("c"));
    expect(batches).toEqual([["a"]]);
    await vi.advanceTimersByTimeAsync(10);
    await Promise.all(burst);
    expect(batches).toEqual([["a"], ["b", "c"]]);
    advance(100);
    const later = group.add("d");
    await vi.advanceTimersByTimeAsync(1);
    await later;
    expect(batches).toEqual([["a"], ["b", "c"], ["d"]]);
  });

  it("fails only the write whose own commit fails, committing the rest of its batch", async () => {
    const { group, batches } = logged("bad");
    const outcomes = await Promise.allSettled([group.add("a"), group.add("bad"), group.add("c")]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(outcomes[1]).toMatchObject({ reason: new Error("refused bad") });
    expect(batches).toEqual([["a"], ["c"]]);
  });

  it("fails the whole batch at once for an error no item can cause, retrying none alone", async () => {
    let calls = 0;
    const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    const group = groupCommit<string>(
      () => {
        calls++;
        throw busy;
      },
      { gatherMs: 20, itemsCanCause: (error) => error !== busy },
    );
    const outcomes = await Promise.allSettled([group.add("a"), group.add("b"), group.add("c")]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(outcomes[0]).toMatchObject({ reason: busy });
    // One commit: each retry alone would have waited out the busy timeout again.
    expect(calls).toBe(1);
  });

  it("commits at once what waits when asked, and when a waiting write matches", async () => {
    const { group, batches } = logged();
    const waiting = [group.add("a"), group.add("b")];
    group.flushIf((item) => item === "z");
    expect(batches).toEqual([]);
    group.flushIf((item) => item === "b");
    expect(batches).toEqual([["a", "b"]]);
    const next = group.add("c");
    group.flush();
    expect(batches).toEqual([["a", "b"], ["c"]]);
    await Promise.all([...waiting, next]);
  });

  it("lets a write wait as long as it is allowed, and commits it sooner with a write that may not wait", async () => {
    vi.useFakeTimers();
    const { group, batches, advance } = logged();
    const patient = [group.add("a", 1_000)];
    await vi.advanceTimersByTimeAsync(500);
    advance(500);
    patient.push(group.add("b", 1_000));
    await vi.advanceTimersByTimeAsync(499);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(patient);
    // The first write's second: "b" came later but rides along.
    expect(batches).toEqual([["a", "b"]]);
    advance(5_000);
    const late = group.add("c", 1_000);
    const urgent = group.add("d");
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([late, urgent]);
    expect(batches).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
  });
});
