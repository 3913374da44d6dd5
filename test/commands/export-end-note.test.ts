import { describe, expect, it } from "vitest";
import { endNote } from "../../src/commands/export-command.js";

// What `export` says of its range's last day. It said "2026-11-30 is today" on 2026-11-25 for
// a --to in the future that no project's answer had clamped (the API unreachable).

describe("the export's note on the range's last day", () => {
  it("calls a clamped end today, whatever the reporter's date", () => {
    expect(endNote("2026-11-24", true, "2026-11-25", "Europe/Berlin")).toBe(
      "2026-11-24 is today (Europe/Berlin): its figures are partial until the day is over",
    );
  });

  it("calls an end on the reporter's today today", () => {
    expect(endNote("2026-11-25", false, "2026-11-25", "Europe/Berlin")).toContain(
      "2026-11-25 is today",
    );
  });

  it("says an unclamped end in the future is still to come, not today", () => {
    expect(endNote("2026-11-30", false, "2026-11-25", "Europe/Berlin")).toBe(
      "2026-11-30 is after today (2026-11-25, Europe/Berlin): it has no figures yet",
    );
  });

  it("says nothing of a settled day", () => {
    expect(endNote("2026-11-20", false, "2026-11-25", "Europe/Berlin")).toBeNull();
  });
});
