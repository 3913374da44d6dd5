import { setFlagsFromString } from "node:v8";
import * as z from "zod";

// A command that is done within a second (`preview`, `run`, `check-config`) runs most of its code
// once or a few times: compiling it again to run faster costs more than it saves. The daemon,
// which lives for days, keeps both defaults. Measured in docs/performance.md, "CLI start-up".

/** Settings for the rest of a process that ends within seconds. */
export function tuneForShortRun(): void {
  if (tiersUpWasmInShortRuns(process.versions.v8, process.execArgv)) useBaselineWasmCompiler();
  // zod compiles each object schema to a function (`new Function`) on its first parse: ~13 ms of
  // a `preview`'s CPU, for a config and a few responses each parsed once. zod reads the setting
  // when a schema is built, so this must run before a command's module (and its schemas) loads.
  z.config({ jitless: true });
}

/**
 * Whether a short command's WebAssembly is worth keeping on the baseline compiler here: on
 * Node 20 (V8 11), where `preview` recompiled undici's parser before its exit. Node 22 and 24
 * (V8 12 and 13) do not recompile it in so short a run, and V8 13 ignores the flag set at run
 * time anyway. Never when V8's flags were frozen on the command line: setting one would abort.
 */
export function tiersUpWasmInShortRuns(v8Version: string, execArgv: readonly string[]): boolean {
  const major = Number.parseInt(v8Version, 10);
  return major < 12 && !execArgv.includes("--freeze-flags-after-init");
}

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for the rest of the process. undici
 * parses HTTP with llhttp compiled to WebAssembly, and after the first few responses V8 (11)
 * compiles that parser again with its optimizing compiler, on a background thread that the exit
 * waits for: 50–75 ms of CPU and ~35 MB of peak RSS in a 0.35 s `preview`. V8 applies a flag set
 * at run time to what it compiles after, and undici compiles llhttp at its first request.
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString("--liftoff-only");
}
