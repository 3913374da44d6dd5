import { describe, expect, it } from "vitest";
import { loadUndiciPool } from "../../src/insights/undici-pool.js";

// The insights client loads undici's Pool from undici's own modules, not its main entry
// (src/insights/undici-pool.ts): an upgrade that moves them, or the request API, fails here.
// (The CLI's end-to-end tests run it in a process where nothing else loaded undici.)

describe("undici's Pool, loaded alone", () => {
  it("is the class undici exports, with the request API its main entry gives it", async () => {
    const Loaded = await loadUndiciPool();
    expect(typeof Loaded.prototype.request).toBe("function");
    const undici = await import("undici");
    expect(Loaded).toBe(undici.Pool);
    expect(Loaded.prototype.request).toBe(undici.Dispatcher.prototype.request);
  });
});
