import type { SlackMessage } from "../../../messages.js";
import { deltaView, deltaWords } from "../../../render/delta-view.js";
import { formatPp, formatRate } from "../../../render/format.js";
import { shownChange } from "../../../render/shown-change.js";
import { truncateText } from "../../../render/truncate-text.js";
import type { AvailableProject, ProjectReport, Slice, SliceSplit } from "../../../report/types.js";
import { escapeMrkdwn } from "./escape-mrkdwn.js";
import { SLACK_LIMITS } from "./slack-limits.js";

// The thread reply that says where each split project's flaky rate moved (issue 37): for each
// split, every slice's flaky rate in both periods with its own verdict, and for branches and
// authors the change as rate and mix effects. One section per project, within Slack's limits.

/** Projects with more splits than this many sections are left to the workbook. */
const MAX_SECTIONS = SLACK_LIMITS.blocks - 1;

/** The reply, or null when no project was split. */
export function slicesReply(
  title: string,
  projects: readonly ProjectReport[],
): SlackMessage | null {
  const split = projects.filter(
    (p): p is AvailableProject & Required<Pick<AvailableProject, "slices">> =>
      p.status === "ok" && p.slices !== undefined,
  );
  if (split.length === 0) return null;
  const sections = split.slice(0, MAX_SECTIONS).map((p) => ({
    type: "section",
    text: {
      type: "mrkdwn",
      text: truncateText(
        [
          `*${escapeMrkdwn(p.name)}* \u00b7 where the flaky rate moved`,
          ...p.slices.splits.map(splitLine),
        ].join("\n"),
        SLACK_LIMITS.sectionChars,
      ),
    },
  }));
  return {
    text: `${title}: where it moved`,
    blocks: [
      { type: "context", elements: [{ type: "mrkdwn", text: "*Where it moved* \u00b7 by slice" }] },
      ...sections,
    ],
  };
}

function splitLine(split: SliceSplit): string {
  const slices = split.slices.map(sliceText).join(" \u00b7 ");
  const effects = split.effects.flakyRate;
  const shares = effects
    ? ` \u2014 rate ${formatPp(effects.ratePp)}, mix ${formatPp(effects.mixPp)}`
    : " \u2014 tags overlap: each on its own";
  return `${split.dimension}: ${slices}${shares}`;
}

function sliceText(slice: Slice): string {
  const view = deltaView("flakyRate", slice.deltas.flakyRate);
  const prior = slice.prior.flakyRate;
  const current = slice.current.flakyRate;
  if (prior === null || current === null) {
    const words = deltaWords(view);
    const change = `${formatRate(prior)} \u2192 ${formatRate(current)}`;
    return `${escapeMrkdwn(slice.name)} ${change}${words ? ` (${words})` : ""}`;
  }
  // The change as printed beside the two figures: their difference as shown (shownChange).
  const shown = shownChange("flakyRate", prior, current);
  const delta = view.verdict === "noise" ? `\u2248 ${shown.delta}` : shown.delta;
  return `${escapeMrkdwn(slice.name)} ${shown.before} \u2192 ${shown.after}${delta ? ` (${delta})` : ""}`;
}
