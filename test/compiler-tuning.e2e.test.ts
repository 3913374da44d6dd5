import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { COMMAND_TUNINGS, compilesEagerly } from "../src/compiler-tuning.js";

// Every command but the emulator sets V8 flags at run time (src/compiler-tuning.ts). V8 does not throw on a
// flag it does not know: it prints "Error: unrecognized flag" on stderr and carries on, so a Node
// whose V8 dropped a flag would print that on every command. Run in a process of its own, from
// the built module, as the CLI runs it.

const TUNING = new URL("../dist/compiler-tuning.js", import.meta.url).href;

/**
 * How many calls of a small function with a loop V8 makes before it has optimized it, in a
 * process of its own: with a tuning run first, or with V8's defaults. Optimizing is made
 * synchronous, so the count does not depend on a background thread's speed.
 */
function callsBeforeOptimized(tuning: "tuneForShortRun" | "tuneForDaemon" | null): number {
  const script = [
    `const tunings = await import(${JSON.stringify(TUNING)});`,
    tuning ? `tunings.${tuning}();` : "",
    "function sum(values) { let s = 0; for (const v of values) s += v; return s; }",
    "const values = Array.from({ length: 50 }, (_, i) => i);",
    // Bit 16 of V8's optimization status: the function runs optimized code.
    'const optimized = () => (eval("%GetOptimizationStatus(sum)") & 16) !== 0;',
    "let calls = 0;",
    "while (!optimized() && calls < 100000) { sum(values); calls++; }",
    "process.stdout.write(String(calls));",
  ].join("\n");
  const result = spawnSync(
    process.execPath,
    [
      "--allow-natives-syntax",
      "--no-concurrent-recompilation",
      "--input-type=module",
      "-e",
      script,
    ],
    { encoding: "utf8" },
  );
  expect(result.stderr).toBe("");
  return Number(result.stdout);
}

describe.each(["tuneForShortRun", "tuneForDaemon"])("%s", (tuning) => {
  it("sets flags this Node's V8 knows, so nothing is printed", () => {
    const script = [
      `const tunings = await import(${JSON.stringify(TUNING)});`,
      `tunings.${tuning}();`,
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

describe("tuneForShortRun", () => {
  // Only where the flags are set: on Node 20 (V8 11), as the project's build machine runs it.
  it.runIf(compilesEagerly(process.versions.v8, []))(
    "leaves a function unoptimized for ten times as many calls as V8's default, not for ever",
    () => {
      const byDefault = callsBeforeOptimized(null);
      const tuned = callsBeforeOptimized("tuneForShortRun");
      expect(byDefault).toBeGreaterThan(0);
      expect(tuned).toBeGreaterThanOrEqual(5 * byDefault);
      expect(tuned).toBeLessThan(100000);
    },
  );
});

describe("tuneForDaemon", () => {
  it.runIf(compilesEagerly(process.versions.v8, []))(
    "leaves a function unoptimized for four times as many calls as V8's default: fewer than a short command",
    () => {
      const byDefault = callsBeforeOptimized(null);
      const daemon = callsBeforeOptimized("tuneForDaemon");
      const shortRun = callsBeforeOptimized("tuneForShortRun");
      expect(byDefault).toBeGreaterThan(0);
      expect(daemon).toBeGreaterThanOrEqual(3 * byDefault);
      expect(daemon).toBeLessThan(shortRun);
    },
  );
});

describe("COMMAND_TUNINGS", () => {
  it("names every command of the CLI, the daemon's as the daemon's and the emulator's as none", () => {
    const CLI = new URL("../dist/cli.js", import.meta.url).pathname;
    const help = spawnSync(process.execPath, [CLI, "--help"], { encoding: "utf8" }).stdout;
    const commands = [...help.slice(help.indexOf("Commands:")).matchAll(/^ {2}([a-z][a-z-]*)/gm)]
      .map((match) => match[1] ?? "")
      .filter((name) => name !== "help");
    expect(commands).toContain("start");
    expect(Object.keys(COMMAND_TUNINGS).sort()).toEqual(commands.sort());
    expect(COMMAND_TUNINGS.start).toBe("daemon");
    expect(COMMAND_TUNINGS.emulator).toBe("none");
    const others = commands.filter((name) => name !== "start" && name !== "emulator");
    expect(others.map((name) => COMMAND_TUNINGS[name])).toEqual(others.map(() => "short-run"));
  });
});

describe("compilesEagerly", () => {
  it("holds V8's compilers back on V8 11 (Node 20) only, and never with its flags frozen", () => {
    expect(compilesEagerly("11.3.244.8-node.33", [])).toBe(true);
    expect(compilesEagerly("12.4.254.21-node.33", [])).toBe(false);
    expect(compilesEagerly("13.6.233.10-node.18", [])).toBe(false);
    for (const frozen of ["--freeze_flags_after_init", "--freeze-flags_after-init=true"]) {
      expect(compilesEagerly("11.3.244.8-node.33", [frozen])).toBe(false);
    }
    expect(compilesEagerly("11.3.244.8-node.33", ["--freeze-flags-after-init=0"])).toBe(true);
    expect(compilesEagerly("11.3.244.8-node.33", ["--freeze-flags-after-init"])).toBe(false);
  });

  it("leaves a Node started with V8's flags frozen running (setting one would abort it)", () => {
    for (const tuning of ["tuneForShortRun", "tuneForDaemon"]) {
      const script = [
        `const tunings = await import(${JSON.stringify(TUNING)});`,
        `tunings.${tuning}();`,
        'process.stdout.write("done");',
      ].join("\n");
      const result = spawnSync(
        process.execPath,
        ["--freeze-flags-after-init", "--input-type=module", "-e", script],
        { encoding: "utf8" },
      );
      expect({ tuning, stdout: result.stdout, status: result.status }).toEqual({
        tuning,
        stdout: "done",
        status: 0,
      });
    }
  });
});
