import { isRate } from "../alerts/alert-metrics.js";
import { TEAM_SCOPE } from "../alerts/scope-windows.js";
import type { Team } from "../config/types.js";
import { escapeMrkdwn } from "../destinations/slack/messages/escape-mrkdwn.js";
import { STATE_MARK } from "../render/alert/alert-view.js";
import { atZone, formatCount, formatRate, plural } from "../render/format.js";
import type { AlertState } from "../state/ledger.js";
import type { Silence } from "../state/silences.js";

// `/insights status <team>` as the asker reads it (issue 24): the team's alerts firing now, each
// with the silence that holds on it, and the silences that hold on alerts not firing now. Times
// in the team's zone, as the alert messages give them. Pure: the store is read by the caller.

/** The answer's mrkdwn text. */
export function renderTeamStatus(
  team: Team,
  firing: readonly AlertState[],
  silences: readonly Silence[],
  now: Date,
): string {
  const zone = team.timezone;
  const silenceOf = (alert: string, scope: string) =>
    silences.find((s) => s.alert === alert && s.scope === scope);
  const heading =
    firing.length === 0
      ? `No alert of *${escapeMrkdwn(team.name)}* is firing now (${atZone(now, zone)}).`
      : `*${escapeMrkdwn(team.name)}*: ${plural(firing.length, "alert")} firing now (${atZone(now, zone)}):`;
  const lines = [heading];
  for (const state of [...firing].sort(worstFirst)) {
    lines.push(firingLine(team, state));
    const silence = silenceOf(state.alert, state.scope);
    if (silence) lines.push(`    \u{1F515} ${silenceWords(silence, zone)}`);
  }
  const quiet = silences.filter(
    (s) => !firing.some((state) => state.alert === s.alert && state.scope === s.scope),
  );
  if (quiet.length > 0) {
    lines.push("Silenced, not firing now:");
    for (const s of quiet) {
      lines.push(
        `\u2022 *${escapeMrkdwn(s.alert)}* \u00b7 ${scopeName(team, s.scope)} \u2014 ${silenceWords(s, zone)}`,
      );
    }
  }
  return lines.join("\n");
}

/** Critical before warn; then by alert and scope, so the answer reads the same each time. */
function worstFirst(a: AlertState, b: AlertState): number {
  const rank = (s: AlertState) => (s.state === "critical" ? 0 : 1);
  return rank(a) - rank(b) || a.alert.localeCompare(b.alert) || a.scope.localeCompare(b.scope);
}

/** "🔴 *flaky-rate* critical · Checkout web — 7.2% (critical at 5.0%) since Tue 24 Nov 09:00". */
function firingLine(team: Team, state: AlertState): string {
  const alert = team.alerts.find((a) => a.name === state.alert);
  const rate = alert ? isRate(alert.metric) : true;
  const figure = (value: number) => (rate ? formatRate(value / 100) : formatCount(value));
  const level = state.state === "critical" || state.state === "warn" ? state.state : null;
  const threshold =
    alert && level ? (level === "critical" ? alert.criticalAt : alert.warnAt) : null;
  const value =
    state.lastValue === null
      ? ""
      : ` \u2014 ${figure(state.lastValue)}${threshold === null ? "" : ` (${level} at ${figure(threshold)})`}`;
  const since = state.firedAt ?? state.since;
  return `${STATE_MARK[state.state]} *${escapeMrkdwn(state.alert)}* ${state.state} \u00b7 ${scopeName(team, state.scope)}${value} since ${atZone(since, team.timezone)}`;
}

/** "snoozed by <@U0MARIA> until Wed 25 Nov 09:00 Europe/Berlin (silence #3)". */
function silenceWords(silence: Silence, zone: string): string {
  return `snoozed by ${who(silence.author)} until ${atZone(silence.endsAt, zone)} (silence #${silence.id})`;
}

/** A Slack user id becomes a mention Slack shows by name; a CLI author (`cli:maria`) stays text. */
function who(author: string): string {
  return /^[UW][A-Z0-9]+$/.test(author) ? `<@${author}>` : escapeMrkdwn(author);
}

function scopeName(team: Team, scope: string): string {
  if (scope === TEAM_SCOPE) return "the whole team";
  const name = team.projects.find((p) => p.id === scope)?.name;
  return escapeMrkdwn(name ? `${name} (${scope})` : scope);
}
