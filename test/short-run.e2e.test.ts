import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tiersUpWasmInShortRuns } from "../src/short-run.js";

// The one-shot commands set a V8 flag at run time (src/short-run.ts). V8 does not throw on a
// flag it does not know: it prints "Error: unrecognized flag" on stderr and carries on, so a Node
// whose V8 dropped the flag would print that on every command. Run in a process of its own, from
// the built module, as the CLI runs it.

const SHORT_RUN = new URL("../dist/short-run.js", import.meta.url).href;

describe("tuneForShortRun", () => {
  it("sets a flag this Node's V8 knows, so nothing is printed", () => {
    const script = [
      `const { tuneForShortRun } = await import(${JSON.stringify(SHORT_RUN)});`,
      "tuneForShortRun();",
      // A WebAssembly module compiled and run after it still works.
      "const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);",
      "new WebAssembly.Instance(new WebAssembly.Module(bytes));",
      'process.stdout.write("done");',
    ].join("\n");
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect({ stdout: result.stdout, stderr: result.stderr, status: result.status }).toEqual({
      stdout: "done",
      stderr: "",
      status: 0,
    });
  });
});

describe("tiersUpWasmInShortRuns", () => {
  it("holds WebAssembly back on V8 11 (Node 20) only, and never with V8's flags frozen", () => {
    expect(tiersUpWasmInShortRuns("11.3.244.8-node.33", [])).toBe(true);
    expect(tiersUpWasmInShortRuns("12.4.254.21-node.33", [])).toBe(false);
    expect(tiersUpWasmInShortRuns("13.6.233.10-node.18", [])).toBe(false);
    expect(tiersUpWasmInShortRuns("11.3.244.8-node.33", ["--freeze-flags-after-init"])).toBe(
      false,
    );
  });

  it("leaves a Node started with V8's flags frozen running (setting one would abort it)", () => {
    const script = [
      `const { tuneForShortRun } = await import(${JSON.stringify(SHORT_RUN)});`,
      "tuneForShortRun();",
      'process.stdout.write("done");',
    ].join("\n");
    const result = spawnSync(
      process.execPath,
      ["--freeze-flags-after-init", "--input-type=module", "-e", script],
      { encoding: "utf8" },
    );
    expect({ stdout: result.stdout, status: result.status }).toEqual({ stdout: "done", status: 0 });
  });
});
