import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { unwrapLines } from "../support/unwrap-lines.js";
import { type RunFixture, startRunFixture } from "./cli-run-fixture.js";

/**
 * What `--at` names: the latest scheduled fire at or before an ISO instant, or a date's fire in
 * the team's zone (the latest before it on a day with none), named in the output; a
 * period that has not ended yet is refused with exit 2 in one line, before any project is
 * fetched, and a value that is not ISO is refused like any bad argument.
 */

let f: RunFixture;
beforeAll(async () => {
  f = await startRunFixture();
});
afterAll(async () => {
  await f.close();
});
afterEach(() => {
  f.reset();
});

const DIGEST = [{ name: "daily", slack: { channel: "C0123ABCD" } }];

function run(path: string, at: string, command = "run") {
  const digest = ["--team", "checkout", "--digest", "daily", "--at", at, "--config", path];
  return f.cli(command === "run" ? ["run", ...digest] : [command, ...digest]);
}

describe("--at", () => {
  it.each(["run", "preview"])(
    "%s refuses a period that has not ended: exit 2, one line that says so",
    async (command) => {
      const path = await f.config(DIGEST);
      const result = await run(path, "2999-11-20", command);
      expect(result.code).toBe(2);
      const said = `${result.stdout}${unwrapLines(result.stderr)}`.trim().split("\n");
      expect(said.filter((l) => l.includes("has not ended"))).toHaveLength(1);
      expect(said.join("\n")).toMatch(/period Nov 19, 2999 .*has not ended in /);
      expect(said.join("\n")).not.toContain("could not be parsed");
      expect(f.slack.posts).toEqual([]);
    },
  );

  it("reads a date as that day's fire in the team's zone", async () => {
    const path = await f.config(DIGEST);
    const result = await run(path, "2026-11-18");
    expect(result.code, result.stderr).toBe(0);
    expect(f.slack.posts[0]?.text).toContain("Nov 17, 2026");
  });

  it.each(["run", "preview"])(
    "%s --at a day with no fire takes the latest fire before it, and names it",
    async (command) => {
      const path = await f.config(DIGEST);
      // Sunday: the weekday schedule last fired on Friday, for Thursday.
      const result = await run(path, "2026-11-15", command);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        "checkout.daily.2026-11-12: the fire of Fri Nov 13 09:00 CET, covering Thu Nov 12",
      );
      if (command === "run") expect(f.slack.posts[0]?.text).toContain("Nov 12, 2026");
    },
  );

  it("a run of a slot already delivered says so and sends nothing", async () => {
    const path = await f.config(DIGEST);
    expect((await run(path, "2026-11-13T08:00:00Z")).code).toBe(0);
    const again = await run(path, "2026-11-14");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("the fire of Fri Nov 13 09:00 CET, covering Thu Nov 12");
    expect(unwrapLines(again.stdout)).toMatch(
      /checkout\.daily\.2026-11-12: already delivered .*--force/,
    );
    expect(f.slack.posts.filter((p) => p.thread_ts === null)).toHaveLength(1);
  });

  it("refuses a value that is not ISO, as 2026/11/20", async () => {
    const path = await f.config(DIGEST);
    const result = await run(path, "2026/11/20");
    expect(result.code).not.toBe(0);
    expect(unwrapLines(result.stderr)).toContain('"2026/11/20" is not an ISO date');
    expect(f.slack.posts).toEqual([]);
  });
});
