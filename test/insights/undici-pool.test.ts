import { describe, expect, it } from "vitest";
import { loadUndiciPool } from "../../src/insights/undici-pool.js";

// The insights client loads undici's Pool from undici's own module, not its main entry
// (src/insights/undici-pool.ts): an upgrade that moves it fails here.
// (The CLI's end-to-end tests run it in a process where nothing else loaded undici.)

describe("undici's Pool, loaded alone", () => {
  it("is the class undici exports, with the dispatch the client sends through", async () => {
    const Loaded = await loadUndiciPool();
    const undici = await import("undici");
    expect(Loaded).toBe(undici.Pool);
    expect(typeof Loaded.prototype.dispatch).toBe("function");
  });
});
