import { setFlagsFromString } from "node:v8";
import * as z from "zod";

// How much V8 compiles again to run faster, by how a process lives. A command that is done within
// a second (`preview`, `run`, `check-config`) runs most of its code once or a few times: compiling
// it again costs more than it saves. The daemon lives for days but works in bursts, a cycle of
// some seconds when its digests fall due: it leaves to V8's optimizing compiler the code that
// runs hot in a burst, not all it runs twice. Measured in docs/performance.md ("CLI start-up",
// "CPU per digest").

/** The settings a command runs with, by how its process lives. */
export type CompilerTuning = "daemon" | "short-run" | "none";

/**
 * Every command's settings, each named so that a command added to the CLI is a choice made
 * (test/compiler-tuning.e2e.test.ts lists the CLI's commands against it). The emulator, a test
 * tool that serves until stopped, keeps V8's and zod's defaults.
 */
export const COMMAND_TUNINGS: Readonly<Record<string, CompilerTuning>> = {
  start: "daemon",
  emulator: "none",
  run: "short-run",
  alerts: "short-run",
  preview: "short-run",
  export: "short-run",
  "check-config": "short-run",
  projects: "short-run",
  init: "short-run",
  backfill: "short-run",
  store: "short-run",
  history: "short-run",
  demo: "short-run",
};

/** Sets, for the rest of this process, the settings of the CLI command about to run. */
export function tuneForCommand(command: string): void {
  const tuning = COMMAND_TUNINGS[command] ?? "short-run";
  if (tuning === "daemon") tuneForDaemon();
  else if (tuning === "short-run") tuneForShortRun();
}

/** Settings for the rest of a process that ends within seconds. */
export function tuneForShortRun(): void {
  if (compilesEagerly(process.versions.v8, process.execArgv)) {
    useBaselineWasmCompiler();
    optimizeOnlyHotCode(10);
  }
  // zod compiles each object schema to a function (`new Function`) on its first parse: ~13 ms of
  // a `preview`'s CPU, for a config and a few responses each parsed once. zod reads the setting
  // when a schema is built, so this must run before a command's module (and its schemas) loads.
  z.config({ jitless: true });
}

/**
 * Settings for the daemon (`start`), before it loads: V8 optimizes a function after four times
 * as much of it has run as by default. By default V8 optimized some 230 functions on its
 * background threads in a process that started and ran one cycle of 50 digests, most of them run
 * a few dozen times (config and date handling, the renderers, the ledger's calls); some 60 with
 * this, and the process's first cycles cost less CPU (docs/performance.md, "CPU per digest, third
 * session"). zod keeps compiling its schemas: the daemon parses every answer with them.
 */
export function tuneForDaemon(): void {
  if (compilesEagerly(process.versions.v8, process.execArgv)) {
    optimizeOnlyHotCode(4);
  }
}

/**
 * Whether V8's compilers are worth holding back here: on Node 20 (V8 11), where a short command
 * recompiled undici's parser and some 30 functions on background threads before its exit, a
 * daemon's cycle some 230, and where holding them back was measured. Node 22 (V8 12) does not
 * recompile the parser in so short a run, Node 24's V8 ignores the WebAssembly flag set at run
 * time, and neither was measured for the daemon. Never when V8's flags were frozen on the command
 * line: setting one would abort the process.
 */
export function compilesEagerly(v8Version: string, execArgv: readonly string[]): boolean {
  const major = Number.parseInt(v8Version, 10);
  return major < 12 && !execArgv.some((arg) => FROZEN_FLAGS.test(arg));
}

/** V8's flag that freezes its flags, as V8 reads it: dashes or underscores, and `=true`/`=1`. */
const FROZEN_FLAGS = /^--freeze[-_]flags[-_]after[-_]init(=(true|1))?$/;

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for the rest of the process. undici
 * parses HTTP with llhttp compiled to WebAssembly, and after the first few responses V8 (11)
 * compiles that parser again with its optimizing compiler, on a background thread that the exit
 * waits for: 50–75 ms of CPU and ~35 MB of peak RSS in a 0.35 s `preview`. V8 applies a flag set
 * at run time to what it compiles after, and undici compiles llhttp at its first request.
 */
function useBaselineWasmCompiler(): void {
  setFlagsFromString("--liftoff-only");
}

/**
 * Lets V8 optimize a function (TurboFan, on a background thread) only after `times` as much of
 * it has run as by default. By default V8 optimizes some 30 functions in a `run --outbox` (Node's
 * URL and path handling, yaml's lexer, exceljs's XML writer, crc32, the quoted-printable
 * encoder), on a background thread, in a process that ends a few hundred ms later: ten times,
 * 0.87× the CPU, 0.31 s against 0.35 (docs/performance.md, "CLI start-up, 2026-11-28 (second
 * session)"). Code that stays hot, as a long `export`'s, is still optimized, a little later.
 */
function optimizeOnlyHotCode(times: number): void {
  // V8's default budget is 66 KB of bytecode (V8 11.3, Node 20).
  setFlagsFromString(`--interrupt-budget=${times * 66 * 1024}`);
}
