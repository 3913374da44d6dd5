import { setFlagsFromString } from "node:v8";

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff) for the rest of the process.
 *
 * For a command that is done within a second (`preview`, `run`, `check-config --online`): undici
 * parses HTTP with llhttp compiled to WebAssembly, and after the first few responses V8 compiles
 * that parser again with its optimizing compiler, on a background thread that the exit waits
 * for: 50–75 ms of CPU in a 0.35 s `preview` (docs/performance.md, "CLI start-up"), never paid
 * back in so short a life. Node applies a V8 flag set at run time to what it compiles after, and
 * undici compiles llhttp at its first request. The daemon, which lives for days, keeps the
 * optimizing compiler.
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString("--liftoff-only");
}
