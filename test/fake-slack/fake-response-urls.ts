import { randomUUID } from "node:crypto";
import { fail, ok, type Reply } from "./fake-slack-state.js";

/**
 * Slash commands' `response_url`s, faked on the fake Web API's port: a test mints one for the
 * payload it sends, and every answer POSTed to it is recorded. As Slack's, a URL takes five
 * answers, then refuses (404); a URL the fake never minted is refused too. No token: the URL is
 * the credential.
 */

/** One answer a client POSTed to a response URL. */
export interface FakeResponse {
  /** The URL it was posted to (as minted). */
  url: string;
  /** Epoch ms when it arrived. */
  at: number;
  /** `ephemeral` (only the asker sees it) or `in_channel`; Slack's default is ephemeral. */
  responseType: string;
  text: string;
  body: Record<string, unknown>;
}

export interface FakeResponseUrls {
  responses: FakeResponse[];
  /** A fresh response URL for a slash command payload. */
  mint(): string;
  /** The method for `/response/<id>`. */
  receive(path: string, params: Record<string, unknown>): Reply;
}

const MAX_ANSWERS = 5;

export function createResponseUrls(origin: () => string): FakeResponseUrls {
  const uses = new Map<string, number>();
  const responses: FakeResponse[] = [];
  return {
    responses,
    mint() {
      const id = randomUUID();
      uses.set(id, 0);
      return new URL(`/response/${id}`, origin()).toString();
    },
    receive(path, params) {
      const id = path.slice("/response/".length);
      const used = uses.get(id);
      if (used === undefined || used >= MAX_ANSWERS) return { ...fail("used_url"), status: 404 };
      uses.set(id, used + 1);
      responses.push({
        url: new URL(path, origin()).toString(),
        at: Date.now(),
        responseType: typeof params.response_type === "string" ? params.response_type : "ephemeral",
        text: typeof params.text === "string" ? params.text : "",
        body: params,
      });
      return ok();
    },
  };
}
