// Slack mrkdwn escaping. Anything that came from the API or config (project names, branches,
// tags, error messages, team titles) goes through here before it lands in a mrkdwn text — the
// blocks and also a message's top-level `text`, which Slack parses the same way for the
// notification — so a branch called `<!channel>` shows as text and pings no one, a name like
// `evil.com` is not made a link and `*x*` is not made bold. Plain-text places (a header, a
// button label, a table's raw_text cell) show entities as typed: they take `plainName` instead.

/** Word joiner: invisible and zero-width, and no letter, dot or slash to a link matcher. */
const JOINER = "\u2060";

/**
 * Formatting marks Slack has no escape for (a backslash shows as itself), each with a lookalike
 * that no client treats as markup. Slack formats a mark only where it can open or close a span
 * (next to a space, punctuation or the ends), so a mark inside a word (`checkout_api`) is left
 * as typed and copies as typed; elsewhere the lookalike is used. We chose lookalikes over
 * zero-width spaces around the mark: whether a zero-width space counts as a boundary differs by
 * client, so it can as well turn formatting on (`a\u200B*b*`) as off.
 */
const MARK_LOOKALIKE: Record<string, string> = {
  "*": "\u2217", // ∗ asterisk operator
  _: "\u02cd", // ˍ modifier letter low macron
  "~": "\u223c", // ∼ tilde operator
  "`": "\u02cb", // ˋ modifier letter grave accent
};

/** Escapes only `&`, `<`, `>` (as `&amp;` `&lt;` `&gt;`): for a URL inside `<url|label>`. */
function escapeEntities(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Text as Slack shows it without making it a link: a word joiner after the dot of each
 * domain-like run (`evil.com`, `www.x.io`, `a@b.co`) and inside `://`. Slack's autolinker
 * matches a host as letters, digits and dots, so the joiner ends the match before any TLD;
 * figures (`2.5%`) keep their dot untouched. The joiner is invisible and takes no column.
 */
export function defuseLinks(text: string): string {
  return text
    .replace(/(?<=[\p{L}\p{N}])\.(?=\p{L})/gu, `.${JOINER}`)
    .replace(/:\/\//g, `:${JOINER}//`);
}

/** Each formatting mark that could open or close a span replaced by its lookalike. */
function defuseMarks(text: string): string {
  return text.replace(/[*_~`]/g, (mark, at: number, all: string) => {
    const before = all[at - 1];
    const after = all[at + 1];
    const inWord = isWordChar(before) && isWordChar(after);
    return inWord ? mark : (MARK_LOOKALIKE[mark] ?? mark);
  });
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/**
 * Escapes text from the API or config for mrkdwn: `&`, `<`, `>` as entities (no mention, no
 * link syntax), formatting marks that would format, and bare URLs and domains Slack would link.
 */
export function escapeMrkdwn(text: string): string {
  return escapeEntities(defuseLinks(defuseMarks(text)));
}

/** A name for a plain_text or raw_text place: shown as typed, but never made a link. */
export function plainName(text: string): string {
  return defuseLinks(text);
}

/** A mrkdwn link `<url|label>` with both parts escaped. */
export function mrkdwnLink(url: string, label: string): string {
  return `<${mrkdwnUrl(url)}|${escapeMrkdwn(label)}>`;
}

/** A URL as a mrkdwn link's target: entities escaped, and a `|`, which would end it early, encoded. */
export function mrkdwnUrl(url: string): string {
  return escapeEntities(url.replace(/\|/g, "%7C"));
}
