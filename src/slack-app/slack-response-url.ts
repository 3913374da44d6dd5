// Answering a slash command through its `response_url` (issue 24): Slack's own URL for the
// command, good for 30 minutes and five answers, needing no token and no public URL of ours.
// An ephemeral answer is seen by the asker only. The URL is a credential of sorts (anyone
// holding it may answer the asker), so it is never logged or put in an error.

/** What a slash command's answer says; `ephemeral`: only the asker sees it. */
export interface SlashAnswer {
  text: string;
  responseType?: "ephemeral" | "in_channel";
}

/** Posts answers to response URLs. */
export type RespondToSlack = (responseUrl: string, answer: SlashAnswer) => Promise<void>;

/**
 * The response URLs this process posts to: Slack's (`https://hooks.slack.com/…`, or another
 * `https://*.slack.com`), or, with SLACK_API_URL set (a fake Slack, a proxy), that origin's.
 * A payload naming anything else is refused rather than posted to.
 */
export function isSlackResponseUrl(url: string, apiUrl: string | null): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (apiUrl !== null && parsed.origin === new URL(apiUrl).origin) return true;
  return parsed.protocol === "https:" && /(^|\.)slack\.com$/.test(parsed.hostname);
}

/** The real poster: one JSON POST with a timeout; a refusal becomes an error without the URL. */
export function slackResponder(
  apiUrl: string | null,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): RespondToSlack {
  const post = options.fetch ?? fetch;
  return async (responseUrl, answer) => {
    if (!isSlackResponseUrl(responseUrl, apiUrl)) {
      throw new Error(
        "the command's response_url is not on slack.com nor SLACK_API_URL's origin; not answered — if Slack is reached through a proxy or a fake, set SLACK_API_URL to it",
      );
    }
    const response = await post(responseUrl, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({
        response_type: answer.responseType ?? "ephemeral",
        text: answer.text,
      }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    // Slack answers 200 "ok", or 404 once the URL expired or was used five times.
    if (!response.ok) {
      throw new Error(`Slack refused the answer to the command: HTTP ${response.status}`);
    }
    await response.body?.cancel();
  };
}
