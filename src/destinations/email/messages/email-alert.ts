import type { TransitionKind } from "../../../alerts/types.js";
import {
  type AlertMessageInput,
  alertOwnersCc,
  headlineText,
  KIND_TITLE,
  ruleText,
  scopeDashboardUrl,
  teamDashboardUrl,
  transitionParts,
  transitionSentence,
  worstOf,
} from "../../../render/alert/alert-view.js";
import { formatPeriod } from "../../../render/format.js";
import { COLOURS, escapeHtml, FONT, linkHtml } from "./email-html.js";

// An alert evaluation as mail: a subject that says the worst news and the window, and a short
// card of its transitions with inline styles (mail clients drop <style>), plus plain text.

export interface AlertEmailContent {
  subject: string;
  html: string;
  text: string;
  /** The owners' addresses of the projects that fired or escalated; empty for none. */
  cc: string[];
  /**
   * Where a fire's charts go: under the transitions in the HTML, before the footer in the text.
   * They are drawn at send time (the mail is recorded before): see email-alert-mail.ts.
   */
  chartsAt: { html: number; text: number };
}

const TONE: Record<string, string> = {
  critical: COLOURS.bad,
  warn: "#bc4c00",
  ok: COLOURS.good,
  no_data: COLOURS.neutral,
  pending: COLOURS.neutral,
};

/** Subject, HTML and text of the evaluation's mail. */
export function renderAlertEmail(input: AlertMessageInput, now: string): AlertEmailContent {
  const worst = worstOf(input.transitions.map((t) => t.to));
  const tag = worst === "ok" || worst === "no_data" ? "resolved" : worst;
  const subject = `[${tag}] ${input.team.title} \u00b7 ${input.alert.name} \u00b7 ${formatPeriod(input.period)}`;
  const groups = (
    ["fired", "escalated", "de-escalated", "resolved", "reminder"] as TransitionKind[]
  )
    .map((kind) => ({ kind, items: input.transitions.filter((t) => t.kind === kind) }))
    .filter((g) => g.items.length > 0);

  const rows = groups
    .map((g) => {
      const items = g.items
        .map((t) => {
          const colour = TONE[t.to] ?? COLOURS.text;
          const words = transitionSentence(input, t, now).slice(t.name.length);
          return `<tr><td style="${FONT}padding:6px 0;border-top:1px solid ${COLOURS.border};">
<div style="color:${colour};"><b style="color:${COLOURS.text};">${linkHtml(t.name, scopeDashboardUrl(input, t.scope))}</b>${escapeHtml(words)}</div>
<div style="color:${COLOURS.neutral};font-size:13px;">${transitionParts(input, t)
            // Each figure on one line; a narrow screen wraps between figures, not inside one.
            .map((p) => escapeHtml(p).replaceAll(" ", "&nbsp;"))
            .join(" &middot; ")}</div></td></tr>`;
        })
        .join("\n");
      return `<tr><td style="${FONT}padding:12px 0 4px;font-size:14px;font-weight:bold;">${KIND_TITLE[g.kind]}</td></tr>\n${items}`;
    })
    .join("\n");

  const team = teamDashboardUrl(input);
  const htmlTop = `<!doctype html><html><body style="margin:0;padding:16px;background:${COLOURS.muted};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid ${COLOURS.border};border-top:4px solid ${TONE[worst] ?? COLOURS.text};">
<tr><td style="${FONT}padding:16px;">
<div style="font-size:18px;font-weight:bold;color:${COLOURS.text};">${escapeHtml(`${input.team.title} \u00b7 ${input.alert.name}`)}</div>
<div style="font-size:13px;color:${COLOURS.neutral};margin-top:4px;">window ${escapeHtml(formatPeriod(input.period))} \u00b7 ${escapeHtml(input.team.timezone)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}</table>
`;
  const htmlBottom = `
<div style="${FONT}font-size:12px;color:${COLOURS.neutral};margin-top:12px;">${escapeHtml(ruleText(input))}</div>
${team ? `<div style="${FONT}font-size:13px;margin-top:8px;">${linkHtml("Open dashboard", team)}</div>` : ""}
<div style="${FONT}font-size:11px;color:${COLOURS.neutral};margin-top:16px;">${escapeHtml(footer(input.key))}</div>
</td></tr></table></body></html>`;

  const textTop = [
    headlineText(input, now),
    `window ${formatPeriod(input.period)} (${input.team.timezone})`,
    "",
    ...groups.flatMap((g) => [
      `${KIND_TITLE[g.kind]}:`,
      ...g.items.map(
        (t) =>
          `  ${transitionSentence(input, t, now)}\n    ${transitionParts(input, t).join(" · ")}`,
      ),
      "",
    ]),
    ruleText(input),
    ...(team ? [`Dashboard: ${team}`] : []),
    ...links(input),
    "",
  ].join("\n");
  const textBottom = `\n${footer(input.key)}`;
  return {
    subject,
    html: htmlTop + htmlBottom,
    text: textTop + textBottom,
    cc: alertOwnersCc(input),
    chartsAt: { html: htmlTop.length, text: textTop.length },
  };
}

/** The digests' footer: a mail traced to its ledger row by its key. */
function footer(key: string): string {
  return `Sent by insights-reporter \u00b7 ${key}`;
}

/** "Dashboards: Web E2E https://…" lines of the plain text, one per project that has one. */
function links(input: AlertMessageInput): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const t of input.transitions) {
    const url = scopeDashboardUrl(input, t.scope);
    if (url === null || seen.has(t.scope)) continue;
    seen.add(t.scope);
    lines.push(`${t.name}: ${url}`);
  }
  return lines.length === 0 ? [] : ["Dashboards:", ...lines.map((l) => `  ${l}`)];
}
