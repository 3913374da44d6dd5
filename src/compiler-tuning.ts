import { setFlagsFromString } from "node:v8";
import * as z from "zod";

// A command that is done within a second (`preview`, `run`, `check-config`) runs most of its code
// once or a few times: compiling it again to run faster costs more than it saves. The daemon,
// which lives for days, keeps the defaults. Measured in docs/performance.md, "CLI start-up".

/** Settings for the rest of a process that ends within seconds. */
export function tuneForShortRun(): void {
  if (compilesEagerlyForShortRuns(process.versions.v8, process.execArgv)) {
    useBaselineWasmCompiler();
    optimizeOnlyHotCode();
  }
  // zod compiles each object schema to a function (`new Function`) on its first parse: ~13 ms of
  // a `preview`'s CPU, for a config and a few responses each parsed once. zod reads the setting
  // when a schema is built, so this must run before a command's module (and its schemas) loads.
  z.config({ jitless: true });
}

/**
 * Whether V8's compilers are worth holding back here: on Node 20 (V8 11), where a short command
 * recompiled undici's parser and some 30 functions on background threads before its exit, and
 * where holding them back was measured. Node 22 (V8 12) does not recompile the parser in so short
 * a run, and Node 24's V8 ignores the WebAssembly flag set at run time. Never when V8's flags were
 * frozen on the command line: setting one would abort the process.
 */
export function compilesEagerlyForShortRuns(
  v8Version: string,
  execArgv: readonly string[],
): boolean {
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
export function useBaselineWasmCompiler(): void {
  setFlagsFromString("--liftoff-only");
}

/**
 * Lets V8 optimize a function (TurboFan, on a background thread) only after ten times as much of
 * it has run as by default. By default V8 optimizes some 30 functions in a `run --outbox` (Node's
 * URL and path handling, yaml's lexer, exceljs's XML writer, crc32, the quoted-printable
 * encoder), on a background thread, in a process that ends a few hundred ms later: with this,
 * 0.87× the CPU, 0.31 s against 0.35 (docs/performance.md, "CLI start-up, 2026-11-28 (second
 * session)"). Code that stays hot, as a long `export`'s, is still optimized, a little later.
 */
export function optimizeOnlyHotCode(): void {
  // V8's default budget is 66 KB of bytecode (V8 11.3, Node 20).
  setFlagsFromString(`--interrupt-budget=${10 * 66 * 1024}`);
}
