import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { unwrapLines } from "../support/unwrap-lines.js";
import { requireBuiltCli, runCli } from "./run-cli.js";

// Every command a message tells people to run must exist, with the options it names: a hint
// naming `list-projects` when the command is `projects` sends people hunting.

const SRC = new URL("../../src/", import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `insights-reporter word`, in code or comments, and backticked `word --option`. */
function mentionedCommands(): { command: string; option: string | null; where: string }[] {
  const found: { command: string; option: string | null; where: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const where = file.slice(SRC.length);
    for (const m of text.matchAll(/`(?:npx )?insights-reporter ([a-z][a-z-]*)( --[a-z-]+)?/g)) {
      found.push({ command: m[1] as string, option: m[2]?.trim() ?? null, where });
    }
    for (const m of text.matchAll(/`([a-z][a-z-]*) (--[a-z][a-z-]*)/g)) {
      found.push({ command: m[1] as string, option: m[2] as string, where });
    }
  }
  return found;
}

/** The commands of the built CLI, each with its options, read from its help. */
async function cliCommands(): Promise<Map<string, string[]>> {
  const top = await runCli(["--help"]);
  const section = top.stdout.split("Commands:")[1] ?? "";
  const names = [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)]
    .map((m) => m[1] as string)
    .filter((n) => n !== "help");
  const commands = new Map<string, string[]>();
  for (const name of names) {
    const help = await runCli([name, "--help"]);
    commands.set(
      name,
      [...help.stdout.matchAll(/(--[a-z][a-z-]*)/g)].map((m) => m[1] as string),
    );
  }
  return commands;
}

describe("the CLI's hints", () => {
  let commands: Map<string, string[]>;
  beforeAll(async () => {
    requireBuiltCli();
    commands = await cliCommands();
  });

  it("name only commands, and options of theirs, that exist", () => {
    const mentions = mentionedCommands();
    // The sources do point at commands: the scan would pass vacuously if it found none.
    expect(mentions.length).toBeGreaterThan(5);
    const wrong = mentions
      .filter(
        (m) =>
          !commands.has(m.command) || (m.option && !commands.get(m.command)?.includes(m.option)),
      )
      .map((m) => `${m.where}: ${m.command}${m.option ? ` ${m.option}` : ""}`);
    expect(wrong).toEqual([]);
  });

  it("never name the API's list-projects operation as if it were a command", () => {
    const named = sourceFiles(SRC).filter((f) =>
      /[`"'(]list-projects\b[^.]*(shows|lists|command)/.test(readFileSync(f, "utf8")),
    );
    expect(named).toEqual([]);
  });

  it("mark required options in each command's help, and point usage errors at it", async () => {
    const help = await runCli(["run", "--help"]);
    expect(help.stdout).toMatch(/--team <team> +team name \(required\)/);
    expect(help.stdout).toMatch(/--digest <digest> +digest name \(required\)/);
    expect(help.stdout).not.toMatch(/--at <iso>.*\(required\)/);
    const missing = await runCli(["run", "--team", "checkout"]);
    expect(missing.code).toBe(2);
    expect(unwrapLines(missing.stderr)).toBe(
      "insights-reporter: required option '--digest <digest>' not specified — see insights-reporter run --help\n",
    );
  });
});
