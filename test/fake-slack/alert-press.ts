import type { FakePost } from "./fake-slack-state.js";

/**
 * The `block_actions` payload Slack sends when a person presses one of the buttons of a message
 * the fake holds: the pressed element's ids, the message as stored, the channel and the user.
 * `actionTs` stays the same for a redelivery of one press and differs for a second press.
 */
export function pressPayload(
  post: FakePost,
  press: { user: string; actionId: string; option?: string; actionTs: string },
): Record<string, unknown> {
  const block = (post.blocks ?? []).find(
    (b): b is { block_id: string; elements: { action_id: string; value?: string }[] } =>
      (b as { type?: unknown }).type === "actions" &&
      (b as { elements: { action_id: string }[] }).elements.some(
        (e) => e.action_id === press.actionId,
      ),
  );
  if (!block) throw new Error(`the message ${post.ts} has no ${press.actionId} button`);
  const element = block.elements.find((e) => e.action_id === press.actionId);
  return {
    type: "block_actions",
    user: { id: press.user, username: press.user.toLowerCase(), team_id: "T0FAKE" },
    api_app_id: "A0FAKEAPP",
    team: { id: "T0FAKE", domain: "fake-workspace" },
    container: { type: "message", message_ts: post.ts, channel_id: post.channel },
    channel: { id: post.channel, name: "qa-alerts" },
    message: {
      type: "message",
      ts: post.ts,
      ...(post.thread_ts ? { thread_ts: post.thread_ts } : {}),
      text: post.text,
      blocks: post.blocks,
    },
    response_url: "https://hooks.slack.invalid/actions/T0FAKE/1/abc",
    trigger_id: "1.2.3",
    actions: [
      {
        action_id: press.actionId,
        block_id: block.block_id,
        action_ts: press.actionTs,
        type: press.option ? "static_select" : "button",
        ...(press.option
          ? {
              selected_option: {
                value: press.option,
                text: { type: "plain_text", text: press.option },
              },
            }
          : { value: element?.value ?? "" }),
      },
    ],
  };
}
