import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createResponseUrls, type FakeResponse } from "./fake-response-urls.js";
import {
  createFaults,
  type FailOptions,
  type FakeFailure,
  type HeldCall,
  type HoldOptions,
} from "./fake-slack-faults.js";
import { receiveUpload } from "./fake-slack-files.js";
import { createSlackLimits, type SlackLimits } from "./fake-slack-limits.js";
import { METHODS } from "./fake-slack-methods.js";
import {
  type FakeChannel,
  type FakeEphemeral,
  type FakePost,
  type FakeSlackState,
  type FakeUpload,
  fail,
  type Reply,
  scopeFor,
} from "./fake-slack-state.js";
import { createSocketMode, FAKE_SLACK_APP_TOKEN, type FakeSocketMode } from "./fake-socket-mode.js";
import { createLoopClock } from "./loop-clock.js";
import { readSlackRequest, type SlackRequest, UnreadableRequest } from "./read-slack-request.js";

export type { FakeResponse } from "./fake-response-urls.js";
export type { FailOptions, FakeFailure, HeldCall, HoldOptions } from "./fake-slack-faults.js";
export type { RateLimited, SlackLimits } from "./fake-slack-limits.js";
export type { FakeChannel, FakeEphemeral, FakePost, FakeUpload } from "./fake-slack-state.js";
export type {
  EnvelopeType,
  FakeEnvelope,
  FakeSocketConnection,
  FakeSocketMode,
} from "./fake-socket-mode.js";
export { FAKE_SLACK_APP_TOKEN } from "./fake-socket-mode.js";

/**
 * A fake Slack Web API over real HTTP on 127.0.0.1, for tests of anything that posts to Slack
 * (the adapter, `run`, the daemon). It speaks the wire format @slack/web-api uses, refuses what
 * Slack refuses, and fails or stalls on demand.
 */

export interface FakeCall {
  /** A Web API method, or "upload" for the upload URL. */
  method: string;
  /** Epoch ms when the request arrived. */
  at: number;
  params: Record<string, unknown>;
}

export interface FakeSlack {
  /** Pass as `slackApiUrl` / SLACK_API_URL; ends with `/api/`. */
  url: string;
  posts: FakePost[];
  uploads: FakeUpload[];
  calls: FakeCall[];
  channels: FakeChannel[];
  /** Messages sent with chat.postEphemeral (seen by one user only). */
  ephemerals: FakeEphemeral[];
  /** User group id (S…) → members, as usergroups.users.list answers. */
  usergroups: Map<string, string[]>;
  /** Socket Mode: connections opened with the app token, envelopes sent and their acks. */
  socket: FakeSocketMode;
  /** Answers POSTed to slash commands' response URLs, in order of arrival. */
  responses: FakeResponse[];
  /** A fresh `response_url` for a slash command payload; its answers land in `responses`. */
  responseUrl(): string;
  /** Slack's rate limits, with the 429s answered and the calls that ignored one; null unless `rateLimits`. */
  limits: SlackLimits | null;
  failNext(method: string, error: FakeFailure, options?: FailOptions): void;
  holdNext(method: string, options?: HoldOptions): HeldCall;
  close(): Promise<void>;
}

export interface FakeSlackOptions {
  token?: string;
  /** The app-level token `apps.connections.open` accepts (default FAKE_SLACK_APP_TOKEN). */
  appToken?: string;
  channels?: FakeChannel[];
  scopes?: string[];
  /** User groups (S…) and their members' user ids. */
  usergroups?: Record<string, string[]>;
  /** Enforce Slack's per-method and per-channel limits with 429s (fake-slack-limits.ts); default off. */
  rateLimits?: boolean;
  /** More bot tokens accepted, as `token` is (several clients of one workspace told apart). */
  moreTokens?: string[];
}

export const FAKE_SLACK_TOKEN = "xoxb-test-token";
/** How often the fake notes that its loop went round, with `rateLimits` (loop-clock.ts). */
const BEAT_MS = 10;

/** Channels of a fresh fake: the ids the example configs use, and one the bot is not in. */
export const DEFAULT_CHANNELS: readonly FakeChannel[] = [
  { id: "C0123ABCD", name: "qa-insights" },
  { id: "C0ALERTS", name: "qa-alerts" },
  { id: "C0OUTSIDE", name: "random", member: false },
];

export const DEFAULT_SCOPES: readonly string[] = [
  "chat:write",
  "files:write",
  "channels:history",
  "groups:history",
  "channels:read",
  "groups:read",
  "usergroups:read",
];

/** Starts a fake Slack on a free loopback port. */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const token = options.token ?? FAKE_SLACK_TOKEN;
  const scopes = options.scopes ?? [...DEFAULT_SCOPES];
  const faults = createFaults();
  const calls: FakeCall[] = [];
  const limits = options.rateLimits ? createSlackLimits() : null;
  // Calls are judged against a 429 by when they can have arrived, not when the loop read them.
  const loop = createLoopClock(BEAT_MS);
  const beat = limits ? setInterval(loop.beat, BEAT_MS).unref() : null;
  let seq = 0;
  const epoch = Math.floor(Date.now() / 1000);
  const state: FakeSlackState = {
    channels: (options.channels ?? DEFAULT_CHANNELS).map((c) => ({ ...c })),
    posts: [],
    uploads: [],
    pendingFiles: new Map(),
    ephemerals: [],
    usergroups: new Map(Object.entries(options.usergroups ?? {})),
    origin: "",
    nextTs: () => `${epoch + ++seq}.${String(seq).padStart(6, "0")}`,
    nextFileId: () => `F0FAKE${String(++seq).padStart(5, "0")}`,
  };

  const socketMode = createSocketMode(options.appToken ?? FAKE_SLACK_APP_TOKEN, () => state.origin);
  const responseUrls = createResponseUrls(() => state.origin);

  function dispatch(method: string, request: SlackRequest, arrivedAfter?: number): Reply {
    const failure = faults.failureFor(callName(method), request, scopes);
    if (failure) return failure;
    if (method.startsWith("upload/")) return receiveUpload(method.slice(7), request, state);
    if (method.startsWith("response/")) return responseUrls.receive(`/${method}`, request.params);
    // The one method that takes the app-level token, never the bot token.
    if (method === "apps.connections.open") return socketMode.connectionsOpen(request.token);
    const handler = METHODS[method];
    if (!handler) return { status: 404, body: { ok: false, error: "unknown_method" } };
    const channel = request.params.channel;
    const refused = limits?.check(
      method,
      typeof channel === "string" ? channel : null,
      request.token ?? undefined,
      arrivedAfter,
    );
    if (refused) return refused;
    if (!request.token) return fail("not_authed");
    if (request.token !== token && !options.moreTokens?.includes(request.token)) {
      return fail("invalid_auth");
    }
    const needed = scopeFor(method, request.params);
    if (needed && !scopes.includes(needed)) {
      return fail("missing_scope", { needed, provided: scopes.join(",") });
    }
    const reply = handler(request, state);
    return { ...reply, headers: { "x-oauth-scopes": scopes.join(","), ...reply.headers } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAfter = loop.earliest();
    const url = new URL(req.url ?? "/", state.origin);
    const method = url.pathname.startsWith("/api/")
      ? url.pathname.slice("/api/".length)
      : url.pathname.startsWith("/upload/") || url.pathname.startsWith("/response/")
        ? url.pathname.slice(1)
        : "";
    let request: SlackRequest;
    try {
      request = await readSlackRequest(req, url);
    } catch (error) {
      const slackError =
        error instanceof UnreadableRequest ? error.slackError : "invalid_form_data";
      return send(res, fail(slackError));
    }
    const logged = callName(method);
    calls.push({ method: logged, at: Date.now(), params: request.params });
    const hold = faults.holdFor(logged, request.params);
    if (!hold) return send(res, dispatch(method, request, arrivedAfter));
    res.on("close", () => {
      if (!res.writableEnded) hold.cut();
    });
    if (hold.effect === "later") {
      hold.arrived();
      const stored = new Promise<Reply>((resolve) =>
        setTimeout(() => {
          resolve(dispatch(method, request));
          hold.stored();
        }, hold.storeAfterMs),
      );
      if (await hold.answer) send(res, await stored);
      return;
    }
    if (hold.effect === "on-release") {
      hold.arrived();
      if (!(await hold.answer)) return;
      send(res, dispatch(method, request));
      hold.stored();
      return;
    }
    const reply = dispatch(method, request);
    hold.stored();
    hold.arrived();
    if (await hold.answer) send(res, reply);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    });
  });
  server.on("upgrade", socketMode.upgrade);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;

  return {
    url: `${state.origin}/api/`,
    posts: state.posts,
    uploads: state.uploads,
    calls,
    channels: state.channels,
    ephemerals: state.ephemerals,
    usergroups: state.usergroups,
    socket: socketMode.socket,
    responses: responseUrls.responses,
    responseUrl: responseUrls.mint,
    limits,
    failNext: faults.failNext,
    holdNext: faults.holdNext,
    async close() {
      // Held requests end unanswered; their sockets go with closeAllConnections.
      faults.dropAll();
      if (beat) clearInterval(beat);
      socketMode.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The name a call is logged, failed and held under: the method, or "upload" for upload URLs. */
function callName(method: string): string {
  if (method.startsWith("response/")) return "response_url";
  return method.startsWith("upload/") ? "upload" : method;
}

function send(res: ServerResponse, reply: Reply): void {
  const json = typeof reply.body !== "string";
  res.writeHead(reply.status ?? 200, {
    "content-type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    ...reply.headers,
  });
  res.end(json ? JSON.stringify(reply.body) : reply.body);
}
