import { setFlagsFromString } from "node:v8";
import * as z from "zod";

// A command that is done within a second (`preview`, `run`, `check-config`) runs most of its code
// once or a few times: compiling it again to run faster costs more than it saves. The daemon,
// which lives for days, keeps both defaults. Measured in docs/performance.md, "CLI start-up".

/** Settings for the rest of a process that ends within seconds. */
export function tuneForShortRun(): void {
  useBaselineWasmCompiler();
  optimizeOnlyHotCode();
  // zod compiles each object schema to a function (`new Function`) on its first parse: ~13 ms of
  // a `preview`'s CPU, for a config and a few responses each parsed once.
  z.config({ jitless: true });
}

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for the rest of the process. undici
 * parses HTTP with llhttp compiled to WebAssembly, and after the first few responses V8 compiles
 * that parser again with its optimizing compiler, on a background thread that the exit waits
 * for: 50–75 ms of CPU and ~35 MB of peak RSS in a 0.35 s `preview`. V8 applies a flag set at
 * run time to what it compiles after, and undici compiles llhttp at its first request.
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString("--liftoff-only");
}

/**
 * Lets V8 optimize a function (TurboFan, on a background thread) only after ten times as much of
 * it has run as by default. By default V8 optimizes some 30 functions in a `run --outbox` (Node's
 * URL and path handling, yaml's lexer, exceljs's XML writer, crc32, the quoted-printable
 * encoder), on a background thread, in a process that ends a few hundred ms later: with this,
 * 0.87× the CPU, 0.31 s against 0.35 (docs/performance.md, "CLI start-up, 2026-11-28 (second session)"). Code
 * that stays hot, as a long `export` or the chart worker's, is still optimized, a little later.
 */
export function optimizeOnlyHotCode(): void {
  // V8's default budget is 66 KB of bytecode (V8 11.3, Node 20).
  setFlagsFromString(`--interrupt-budget=${10 * 66 * 1024}`);
}
