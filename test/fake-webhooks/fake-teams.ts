import { cardProblems, TEAMS_LIMIT_BYTES } from "./check-card.js";
import {
  type Answer,
  type FakeEndpoint,
  type ReceivedRequest,
  startFakeEndpoint,
} from "./fake-endpoint.js";

export type { FailOptions, HeldRequest, ReceivedRequest } from "./fake-endpoint.js";

/**
 * A fake Teams Workflows webhook ("Post to a channel when a webhook request is received") over
 * real HTTP on 127.0.0.1. Its URL has the shape of a workflow's, with the `sig` that authorises
 * it. Like Teams it answers 202 to a card it takes, 413 to one over 28 KB, 404 once the workflow
 * is deleted, and 401 to a wrong `sig`; stricter than Teams, it answers 400 naming every problem
 * of a card that breaks the Adaptive Card schema (Teams accepts such a card and drops it later,
 * where no test could see it). A GET (what `check-config --online` sends) is answered 405.
 */
export interface FakeTeams extends Omit<FakeEndpoint, "origin"> {
  /** The workflow's URL, as Teams shows it when the workflow is made. */
  url: string;
  /** The cards Teams took, in order, parsed. */
  cards: TeamsPost[];
  /** From now on the workflow answers 404, as after someone deleted it. */
  deleteWorkflow(): void;
}

export interface TeamsPost {
  message: { type: string; attachments: { content: Record<string, unknown> }[] };
  bytes: number;
  request: ReceivedRequest;
}

export const FAKE_TEAMS_SIG = "fake-sig-0123456789abcdef";
const WORKFLOW = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

/** Starts a fake Teams workflow on a free loopback port. */
export async function startFakeTeams(): Promise<FakeTeams> {
  let deleted = false;
  const cards: TeamsPost[] = [];
  const path = `/workflows/${WORKFLOW}/triggers/manual/paths/invoke`;
  const endpoint = await startFakeEndpoint((request): Answer => {
    const url = new URL(request.path, "http://fake");
    if (deleted || url.pathname !== path) return notFound();
    if (url.searchParams.get("sig") !== FAKE_TEAMS_SIG) {
      return {
        status: 401,
        body: {
          error: {
            code: "DirectApiAuthorizationRequired",
            message: "The request must be authenticated",
          },
        },
      };
    }
    if (request.method !== "POST") return { status: 405, headers: { Allow: "POST" }, body: "" };
    const bytes = Buffer.byteLength(request.body, "utf8");
    if (bytes > TEAMS_LIMIT_BYTES) {
      return {
        status: 413,
        body: {
          error: { code: "MessageSizeExceeded", message: `${bytes} bytes > ${TEAMS_LIMIT_BYTES}` },
        },
      };
    }
    const problems = cardProblems(request.body);
    if (problems.length > 0)
      return {
        status: 400,
        body: { error: { code: "InvalidCard", message: problems.join("; ") } },
      };
    cards.push({ message: JSON.parse(request.body), bytes, request });
    return { status: 202, body: "" };
  });
  const { origin, ...rest } = endpoint;
  return {
    ...rest,
    url: `${origin}${path}?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${FAKE_TEAMS_SIG}`,
    cards,
    deleteWorkflow() {
      deleted = true;
    },
  };
}

function notFound(): Answer {
  return {
    status: 404,
    body: { error: { code: "WorkflowNotFound", message: "The workflow could not be found" } },
  };
}
