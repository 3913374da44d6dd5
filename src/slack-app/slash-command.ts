import * as z from "zod";
import type { DigestConfig, Team } from "../config/types.js";
import { escapeMrkdwn } from "../destinations/slack/messages/escape-mrkdwn.js";
import type { Logger } from "../logger.js";
import type { AlertHolds, AlertStateLog } from "../state/ledger.js";
import { renderTeamStatus } from "./slack-command-status.js";
import type { RespondToSlack } from "./slack-response-url.js";
import type { SlackEnvelope } from "./slack-socket.js";
import { type DigestNowOutcome, describeDigestNow } from "./slash-digest.js";

// The `/insights` slash command (issue 24), as Socket Mode delivers it (acknowledged already):
// `digest <team> [digest]` posts a digest now, `status <team>` tells the asker which alerts fire
// and which are silenced, `help` (or anything else) shows how. Every answer goes to the asker
// only, through the command's `response_url`; the digest itself goes where the team's config
// sends it. Anyone who can type the command may ask: a digest now is the one the schedule would
// post, and status only reads.

/** What Slack sends for a slash command; checked where it enters. */
const slashPayload = z.object({
  command: z.string(),
  text: z.string().default(""),
  user_id: z.string().min(1),
  channel_id: z.string().optional(),
  response_url: z.string().min(1),
});

/** What `/insights …` asks, read off the command's text. */
export type SlashRequest =
  | { kind: "digest"; team: string | null; digest: string | null; extra: boolean }
  | { kind: "status"; team: string | null; extra: boolean }
  | { kind: "help"; unknown: string | null };

/** Reads the command's text: a subcommand and its words, separated by any whitespace. */
export function parseSlashText(text: string): SlashRequest {
  const [sub = "", ...args] = text.trim().split(/\s+/).filter(Boolean);
  switch (sub.toLowerCase()) {
    case "digest":
      return {
        kind: "digest",
        team: args[0] ?? null,
        digest: args[1] ?? null,
        extra: args.length > 2,
      };
    case "status":
      return { kind: "status", team: args[0] ?? null, extra: args.length > 1 };
    case "":
    case "help":
      return { kind: "help", unknown: null };
    default:
      return { kind: "help", unknown: sub };
  }
}

export interface SlashCommandDeps {
  /** The teams of the config in force (a reload changes them). */
  teams(): readonly Team[];
  ledger: Pick<AlertStateLog, "firingAlerts"> & Pick<AlertHolds, "silences">;
  digestNow(
    team: Team,
    digest: DigestConfig,
    asker: string,
    starting: (period: string) => Promise<void>,
  ): Promise<DigestNowOutcome>;
  respond: RespondToSlack;
  logger: Logger;
  now(): Date;
}

/** Handles a `slash_commands` envelope: logs who asked what, then answers the asker. */
export function createSlashCommandHandler(deps: SlashCommandDeps) {
  return async function handleSlashCommand(envelope: SlackEnvelope): Promise<void> {
    const payload = slashPayload.safeParse(envelope.body);
    if (!payload.success) {
      deps.logger.warn(
        { envelopeId: envelope.envelopeId },
        "a slash command without its user or response_url; nothing to answer",
      );
      return;
    }
    const { command, text, user_id: asker, channel_id: channel, response_url } = payload.data;
    const request = parseSlashText(text);
    const logger = deps.logger.child({
      envelopeId: envelope.envelopeId,
      slackUser: asker,
      command: `${command} ${text}`.trim(),
      ...(channel ? { channel } : {}),
    });
    logger.info("Slack command");
    // Fetching a digest may take a while: the asker hears at once that it is under way.
    const tell = async (text: string) => {
      try {
        await deps.respond(response_url, { text, responseType: "ephemeral" });
      } catch (error) {
        logger.warn({ err: String(error) }, "could not answer the Slack command");
      }
    };
    let answer: string;
    try {
      answer = await answerTo(request, command, asker, logger, tell);
    } catch (error) {
      logger.warn({ err: String(error) }, "the Slack command failed");
      // The error itself stays in the log: it may name hosts or paths the asker need not see.
      answer = `That did not work; the reporter's log has the details (envelope ${escapeMrkdwn(envelope.envelopeId)}).`;
    }
    await tell(answer);
  };

  async function answerTo(
    request: SlashRequest,
    command: string,
    asker: string,
    logger: Logger,
    tell: (text: string) => Promise<void>,
  ): Promise<string> {
    switch (request.kind) {
      case "help":
        return usage(command, request.unknown);
      case "status": {
        if (request.extra) return usage(command, null);
        const team = pickTeam(request.team, command, "status");
        if (typeof team === "string") return team;
        const now = deps.now();
        const [firing, silences] = await Promise.all([
          deps.ledger.firingAlerts(team.name),
          deps.ledger.silences({ team: team.name, activeAt: now }),
        ]);
        return renderTeamStatus(team, firing, silences, now);
      }
      case "digest": {
        if (request.extra) return usage(command, null);
        const team = pickTeam(request.team, command, "digest");
        if (typeof team === "string") return team;
        const digest = pickDigest(team, request.digest, command);
        if (typeof digest === "string") return digest;
        const outcome = await deps.digestNow(team, digest, asker, (period) =>
          tell(`Posting the ${digest.name} digest of ${team.name} for ${period} now\u2026`),
        );
        logger.info({ slot: outcome.key, outcome: outcome.kind }, "Slack command: digest now");
        return describeDigestNow(team, digest, outcome);
      }
    }
  }

  /** The team asked for, or the answer naming the teams there are. */
  function pickTeam(name: string | null, command: string, sub: string): Team | string {
    const teams = deps.teams();
    const known = teams.map((t) => `\`${t.name}\``).join(", ");
    if (name === null) return `Which team? \`${command} ${sub} <team>\` \u2014 teams: ${known}.`;
    const team = teams.find((t) => t.name === name);
    return team ?? `There is no team \`${escapeMrkdwn(name)}\`. Teams: ${known}.`;
  }
}

/** The digest asked for, the team's only one when none is named, or the answer listing them. */
function pickDigest(team: Team, name: string | null, command: string): DigestConfig | string {
  const known = team.digests.map((d) => `\`${d.name}\``).join(", ");
  if (team.digests.length === 0) return `Team \`${team.name}\` has no digests.`;
  if (name === null) {
    const [only] = team.digests;
    if (team.digests.length === 1 && only) return only;
    return `Which digest of \`${team.name}\`? \`${command} digest ${team.name} <digest>\` \u2014 digests: ${known}.`;
  }
  const digest = team.digests.find((d) => d.name === name);
  return (
    digest ??
    `Team \`${team.name}\` has no digest \`${escapeMrkdwn(name)}\`. Its digests: ${known}.`
  );
}

/** How to use the command, after what was not understood, if anything. */
export function usage(command: string, unknown: string | null): string {
  return [
    ...(unknown === null ? [] : [`I do not know \`${escapeMrkdwn(unknown)}\`.`]),
    `*${command} digest <team> [digest]* \u2014 post the team's digest now, for its latest scheduled fire (the period the schedule posts for it), where the team's digests go; neither posts that period twice.`,
    `*${command} status <team>* \u2014 the team's alerts firing now and who snoozed them until when (only you see it).`,
    `*${command} help* \u2014 this.`,
  ].join("\n");
}
