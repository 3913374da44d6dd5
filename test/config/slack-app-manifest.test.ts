import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseSlashText } from "../../src/slack-app/slash-command.js";

/**
 * The Slack app manifest users paste (config/slack-app-manifest.yml) asks for what the daemon
 * uses: Socket Mode and interactivity with no Request URL, the `/insights` command whose usage
 * hint names only subcommands the daemon knows, and the bot scopes posting and the command need.
 */

interface Manifest {
  features: {
    slash_commands?: {
      command: string;
      description: string;
      usage_hint?: string;
      url?: string;
    }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    socket_mode_enabled?: boolean;
    interactivity?: { is_enabled?: boolean; request_url?: string };
  };
}

const manifest = parse(
  readFileSync(new URL("../../config/slack-app-manifest.yml", import.meta.url), "utf8"),
) as Manifest;

describe("the Slack app manifest", () => {
  it("turns on Socket Mode and interactivity, with no public URL anywhere", () => {
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.settings.interactivity?.is_enabled).toBe(true);
    expect(manifest.settings.interactivity?.request_url).toBeUndefined();
    expect(JSON.stringify(manifest)).not.toMatch(/https?:\/\//);
  });

  it("declares /insights with a usage hint naming the subcommands the daemon answers", () => {
    const commands = manifest.features.slash_commands ?? [];
    expect(commands.map((c) => c.command)).toEqual(["/insights"]);
    const [insights] = commands;
    expect(insights?.url).toBeUndefined();
    expect(insights?.description.length).toBeGreaterThan(0);
    const hint = insights?.usage_hint ?? "";
    const subcommands = hint.split("|").map((part) => part.trim().split(/\s+/)[0] ?? "");
    expect(subcommands).toEqual(["digest", "status", "help"]);
    // Each is one the command understands, not "I do not know …".
    for (const sub of subcommands) {
      expect(parseSlashText(`${sub} checkout`)).not.toMatchObject({ kind: "help", unknown: sub });
    }
  });

  it("asks for the bot scopes of posting, uploading, looking up a post and the command", () => {
    // At least these: who-may-act checks may add one to read user groups.
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(["chat:write", "files:write", "channels:history", "commands"]),
    );
  });
});
