import { describe, expect, it } from "vitest";
import { useColor } from "../../src/commands/command-context.js";

describe("useColor", () => {
  const tty = { isTTY: true } as NodeJS.WriteStream;
  const pipe = { isTTY: false } as NodeJS.WriteStream;

  it.each([
    ["a terminal", tty, {}, true],
    ["a terminal with NO_COLOR set", tty, { NO_COLOR: "1" }, false],
    ["a pipe", pipe, {}, false],
  ])("%s: colour %s", (_, stream, env, expected) => {
    expect(useColor(stream, env as NodeJS.ProcessEnv)).toBe(expected);
  });
});
