import type { SocketModeClient } from "@slack/socket-mode";
import { slackLibraryLogger } from "../destinations/slack/slack-library-logger.js";
import type { SlackSocketMetrics, SlackSocketState } from "../ops/slack-socket-state.js";
import { redactSecrets, type Secret } from "../secret.js";

// The daemon's Socket Mode connection to Slack (ADR 0007): opened with the app-level token,
// every envelope acknowledged the moment it arrives — before any work, so nothing we do can take
// us past Slack's 3 s — and its state kept for /readyz and /metrics.
//
// Reconnecting is ours, not the library's: its own reconnect calls `start()` without catching,
// so a token revoked while the daemon runs became an unhandled rejection that would end the
// process (seen with the fake). Here a drop or Slack's `disconnect` reconnects at once, then
// with a doubling delay; a refusal of the token is final and shown as `refused`.

export interface SlackSocketStatus {
  state: SlackSocketState;
  /** When it entered this state. */
  since: Date;
  /** Connections Slack greeted (`hello`) since the daemon started. */
  connects: number;
  /** Why it is refused or failed: Slack's error code or the error's; null otherwise. */
  problem: string | null;
}

/** One envelope from Slack, acknowledged already when a handler sees it. */
export interface SlackEnvelope {
  envelopeId: string;
  /** `interactive`, `slash_commands` or `events_api`. */
  type: string;
  /** The envelope's payload, as Slack sent it. */
  body: unknown;
  /** Set by Slack on a redelivery of an envelope whose ack it did not get. */
  retryAttempt: number;
}

export interface SlackSocketOptions {
  appToken: Secret;
  /** SLACK_API_URL (where `apps.connections.open` is called); null for Slack itself. */
  apiUrl: string | null;
  logger: Pick<LibraryLoggerTarget, "info" | "warn">;
  /** Runs after the ack; a failure is logged, and the envelope stays acknowledged. */
  onEnvelope(envelope: SlackEnvelope): Promise<void>;
  metrics?: SlackSocketMetrics;
  now?: () => Date;
  /** The first reconnect delay after a failed attempt, doubled up to a minute (default 1 s). */
  reconnectStepMs?: number;
}

const MAX_RECONNECT_DELAY_MS = 60_000;

/**
 * `apps.connections.open` errors that no retry can mend: the token is wrong, revoked, of the
 * wrong kind or lacks `connections:write`, or the workspace is gone. The library's list, plus
 * the last four.
 */
const FINAL_REFUSALS: ReadonlySet<string> = new Set([
  "not_authed",
  "invalid_auth",
  "account_inactive",
  "user_removed_from_team",
  "team_disabled",
  "token_revoked",
  "token_expired",
  "not_allowed_token_type",
  "missing_scope",
]);

/** The part of our (pino) logger this module writes to. */
interface LibraryLoggerTarget {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SlackSocket {
  status(): SlackSocketStatus;
  /**
   * Closes the connection; no reconnect follows. Envelope handlers in flight are awaited for
   * `graceMs` at most (default: until they end).
   */
  stop(graceMs?: number): Promise<void>;
}

/** Opens Socket Mode in the background; `status()` says how far it got. */
export function openSlackSocket(options: SlackSocketOptions): SlackSocket {
  const now = options.now ?? (() => new Date());
  const { logger, metrics } = options;
  let status: SlackSocketStatus = { state: "connecting", since: now(), connects: 0, problem: null };
  let stopping = false;
  const inFlight = new Set<Promise<void>>();

  const enter = (state: SlackSocketState, problem: string | null = null) => {
    if (status.state === state && status.problem === problem) return;
    // A new problem while still reconnecting keeps `since`: /readyz judges how long it has been.
    const since = status.state === state ? status.since : now();
    status = { ...status, state, since, problem };
    metrics?.socketState(state);
    logger.info({ state, ...(problem ? { problem } : {}) }, `Slack Socket Mode ${state}`);
  };
  metrics?.socketState(status.state);

  const step = options.reconnectStepMs ?? 1_000;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;
  let attempt: Promise<void> | null = null;

  const client = import("@slack/socket-mode").then(({ SocketModeClient }) => {
    const socket = new SocketModeClient({
      appToken: options.appToken.reveal(),
      logger: slackLibraryLogger(logger, options.appToken, "Slack Socket Mode client warning"),
      autoReconnectEnabled: false,
      clientOptions: {
        ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
        // The original axios error holds the request config, Authorization header included.
        attachOriginalToWebAPIRequestError: false,
        timeout: 30_000,
        // One try per attempt: the delays between attempts are ours (below).
        retryConfig: { retries: 0 },
      },
    });
    socket.on("connected", () => {
      failures = 0;
      status = { ...status, connects: status.connects + 1 };
      metrics?.socketConnected();
      enter("connected");
    });
    // The WebSocket is gone: a drop, Slack's `disconnect`, or an attempt that failed.
    socket.on("disconnected", () => reconnectLater(socket));
    socket.on("slack_event", (event: LibraryEvent) => {
      const handled = acknowledgeThenHandle(event);
      inFlight.add(handled);
      void handled.finally(() => inFlight.delete(handled));
    });
    return socket;
  });
  client.then(connect, (error: unknown) => enter("failed", String(error)));

  function connect(socket: SocketModeClient) {
    attempt = socket.start().then(
      async () => {
        // Stopped while it connected: close what just opened.
        if (stopping) await socket.disconnect();
      },
      (error: unknown) => {
        if (stopping) return;
        const code = slackErrorCode(error);
        if (code && FINAL_REFUSALS.has(code)) {
          enter("refused", code);
          return;
        }
        const problem =
          code ?? (error ? redactSecrets(String(error), [options.appToken.reveal()]) : null);
        reconnectLater(socket, problem);
      },
    );
  }

  /** Schedules the next attempt, once however many signals say the connection is gone. */
  function reconnectLater(socket: SocketModeClient, problem: string | null = status.problem): void {
    if (stopping || timer || status.state === "refused") return;
    enter("reconnecting", problem);
    // A routine drop or refresh reconnects at once; failures in a row wait longer each time.
    const delay = failures === 0 ? 0 : Math.min(step * 2 ** (failures - 1), MAX_RECONNECT_DELAY_MS);
    failures += 1;
    timer = setTimeout(() => {
      timer = null;
      if (!stopping) connect(socket);
    }, delay);
  }

  async function acknowledgeThenHandle(event: LibraryEvent): Promise<void> {
    const started = performance.now();
    try {
      await event.ack();
    } catch (error) {
      metrics?.socketEnvelope(event.type, "ack_failed", performance.now() - started);
      // Unacknowledged, Slack sends it again (to this or another connection): do the work then.
      logger.warn(
        { envelopeId: event.envelope_id, type: event.type, error: String(error) },
        "could not acknowledge a Slack envelope; Slack will send it again",
      );
      return;
    }
    metrics?.socketEnvelope(event.type, "acked", performance.now() - started);
    try {
      await options.onEnvelope({
        envelopeId: event.envelope_id,
        type: event.type,
        body: event.body,
        retryAttempt: event.retry_num ?? 0,
      });
    } catch (error) {
      logger.warn(
        { envelopeId: event.envelope_id, type: event.type, error: String(error) },
        "handling a Slack envelope failed",
      );
    }
  }

  return {
    status: () => status,
    async stop(graceMs = Number.POSITIVE_INFINITY) {
      if (stopping) return;
      stopping = true;
      if (timer) clearTimeout(timer);
      const socket = await client.catch(() => null);
      await socket?.disconnect();
      // An attempt still waiting on apps.connections.open closes what it opens by itself.
      await Promise.race([attempt, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      // Handlers still at work (a command's answer) get `graceMs`, as the daemon's slots do.
      let handle: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          if (Number.isFinite(graceMs)) handle = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(handle);
      enter("stopped");
    },
  };
}

/** What the library's `slack_event` carries. */
interface LibraryEvent {
  ack(response?: Record<string, unknown>): Promise<void>;
  envelope_id: string;
  type: string;
  body: unknown;
  retry_num?: number;
}

/** Slack's error code when `apps.connections.open` refused the token (`invalid_auth` …). */
function slackErrorCode(error: unknown): string | null {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === "string" ? data.error : null;
}

/** A connection that has been (re)connecting for this long fails /readyz. */
export const SOCKET_STALE_MS = 2 * 60_000;

/**
 * The connection's /readyz check. Slack recycles connections every few hours, so a reconnect
 * is routine and stays ready for SOCKET_STALE_MS; a refused token is not, and fails at once.
 */
export function socketReadiness(
  status: SlackSocketStatus,
  now: Date,
): { ok: boolean; detail: string } {
  const since = status.since.toISOString();
  switch (status.state) {
    case "connected":
      return { ok: true, detail: `connected since ${since} (${status.connects} connects)` };
    case "connecting":
    case "reconnecting":
      return {
        ok: now.getTime() - status.since.getTime() < SOCKET_STALE_MS,
        detail: `${status.state} since ${since}`,
      };
    case "refused":
      return {
        ok: false,
        detail: `refused by Slack (${status.problem}) since ${since} — set SLACK_APP_TOKEN (slack.app_token) to an app-level token (xapp-…) with the connections:write scope, then restart`,
      };
    case "failed":
      return { ok: false, detail: `failed since ${since}: ${status.problem}` };
    case "stopped":
      return { ok: false, detail: `stopped since ${since}` };
  }
}

/** Who did what, for the log line of an envelope: the Slack user id and the action or command. */
export function describeEnvelope(envelope: SlackEnvelope): Record<string, string | number> {
  const body = (envelope.body ?? {}) as {
    user?: { id?: unknown };
    user_id?: unknown;
    command?: unknown;
    text?: unknown;
    actions?: { action_id?: unknown }[];
  };
  const user = body.user?.id ?? body.user_id;
  const action = body.actions?.[0]?.action_id;
  return {
    envelopeId: envelope.envelopeId,
    type: envelope.type,
    ...(envelope.retryAttempt > 0 ? { retryAttempt: envelope.retryAttempt } : {}),
    ...(typeof user === "string" ? { slackUser: user } : {}),
    ...(typeof action === "string" ? { action } : {}),
    ...(typeof body.command === "string" ? { command: body.command } : {}),
  };
}
