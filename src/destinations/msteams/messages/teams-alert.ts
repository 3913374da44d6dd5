import type { TransitionKind } from "../../../alerts/types.js";
import type { CardElement, TeamsMessage } from "../../../messages.js";
import {
  type AlertMessageInput,
  headlineText,
  KIND_TITLE,
  ruleText,
  STATE_MARK,
  scopeDashboardUrl,
  teamDashboardUrl,
  transitionParts,
  transitionSentence,
  worstOf,
} from "../../../render/alert/alert-view.js";
import { formatPeriod } from "../../../render/format.js";
import { truncateText } from "../../../render/truncate-text.js";
import {
  type CardColour,
  container,
  messageBytes,
  openUrl,
  richText,
  TEAMS_CARD_BYTES,
  teamsMessage,
} from "./card-parts.js";

// An alert evaluation as a Teams card: its worst state as the colour of the title band, then
// its transitions grouped by kind, each scope with its state. A Teams workflow cannot edit a
// message it posted, so every card says the state of each scope it names, resolved included.

const NAME_CHARS = 80;
const KINDS: readonly TransitionKind[] = [
  "fired",
  "escalated",
  "de-escalated",
  "resolved",
  "reminder",
];
/** Transitions listed per kind; the rest are counted (the card must stay under 28 KB). */
const LINES_PER_KIND = 40;

const STATE_COLOUR: Record<string, CardColour> = {
  critical: "attention",
  warn: "warning",
  pending: "default",
  ok: "good",
  no_data: "default",
};

const BAND: Record<string, "attention" | "warning" | "good" | "emphasis"> = {
  critical: "attention",
  warn: "warning",
  ok: "good",
  pending: "emphasis",
  no_data: "emphasis",
};

/** The evaluation's card: one per evaluation, grouping all its transitions, within 28 KB. */
export function renderTeamsAlert(input: AlertMessageInput, now: string): TeamsMessage {
  // Many scopes changing at once can crowd the card: fewer lines per kind until it fits.
  let lines = LINES_PER_KIND;
  let message = alertCard(input, now, lines);
  while (messageBytes(message) > TEAMS_CARD_BYTES && lines > 1) {
    lines = Math.floor(lines / 2);
    message = alertCard(input, now, lines);
  }
  return message;
}

function alertCard(input: AlertMessageInput, now: string, linesPerKind: number): TeamsMessage {
  const worst = worstOf(input.transitions.map((t) => t.to));
  const title = `${truncateText(input.team.title, NAME_CHARS)} \u00b7 ${truncateText(input.alert.name, NAME_CHARS)}`;
  const body: CardElement[] = [
    container(
      [
        richText([`${STATE_MARK[worst]} `, { text: title, bold: true, size: "medium" }]),
        richText(
          [
            {
              text: `window ${formatPeriod(input.period)} \u00b7 ${input.team.timezone}`,
              subtle: true,
              size: "small",
            },
          ],
          { spacing: "none" },
        ),
      ],
      BAND[worst],
    ),
  ];
  for (const kind of KINDS) {
    const items = input.transitions.filter((t) => t.kind === kind);
    if (items.length === 0) continue;
    body.push(richText([{ text: KIND_TITLE[kind], bold: true }], { separator: true }));
    for (const t of items.slice(0, linesPerKind)) {
      // The sentence starts with the scope's name: bold (and linked) there, the rest in the
      // state's colour, the figures after it.
      const url = scopeDashboardUrl(input, t.scope);
      const name = truncateText(t.name, NAME_CHARS);
      body.push(
        richText(
          [
            `${STATE_MARK[t.to]} `,
            { text: name, bold: true, ...(url && /^https?:\/\//i.test(url) ? { url } : {}) },
            {
              text: transitionSentence(input, t, now).slice(t.name.length),
              colour: STATE_COLOUR[t.to] ?? "default",
            },
          ],
          { spacing: "small" },
        ),
        richText(
          [{ text: transitionParts(input, t).join(" \u00b7 "), subtle: true, size: "small" }],
          {
            spacing: "none",
          },
        ),
      );
    }
    const left = items.length - linesPerKind;
    if (left > 0) body.push(richText([`\u2026 and ${left} more`], { spacing: "none" }));
  }
  body.push(
    richText([{ text: ruleText(input), subtle: true, size: "small" }], { separator: true }),
  );
  const team = teamDashboardUrl(input);
  return teamsMessage(
    body,
    headlineText(input, now),
    team && /^https?:\/\//i.test(team) ? [openUrl("Open dashboard", team)] : [],
  );
}
