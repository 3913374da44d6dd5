import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { fail, ok, type Reply } from "./fake-slack-state.js";

/**
 * Slack's Socket Mode, faked on the fake Web API's own port: `apps.connections.open` (app token
 * only) hands out a single-use `ws://` URL; a connection gets `hello`, then the envelopes a test
 * sends, and every ack that comes back is recorded with its timing. A test can drop a
 * connection (no close frame, as a network loss) or ask it to reconnect (`disconnect`).
 */

export const FAKE_SLACK_APP_TOKEN = "xapp-1-A0FAKEAPP-1-fakeapptoken";

export type EnvelopeType = "interactive" | "slash_commands" | "events_api";

/** One WebSocket a client opened. */
export interface FakeSocketConnection {
  id: number;
  /** Epoch ms when the upgrade was accepted. */
  openedAt: number;
  open: boolean;
}

/** An envelope the fake sent, and the client's ack of it once it came. */
export interface FakeEnvelope {
  envelopeId: string;
  type: EnvelopeType;
  payload: Record<string, unknown>;
  connectionId: number;
  retryAttempt: number;
  /** Epoch ms when it was written to the socket. */
  sentAt: number;
  /** Epoch ms when its ack arrived; null until then. */
  ackedAt: number | null;
  /** The ack's `payload` (a slash command may answer in it). */
  ackPayload: unknown;
}

export interface SendOptions {
  /** Which connection gets it; default the oldest open one (Slack picks one of them). */
  connectionId?: number;
  /** As Slack sets it on a redelivery after a missing ack. */
  retryAttempt?: number;
  /** Reuse an envelope id (a redelivery); default a fresh one. */
  envelopeId?: string;
}

export interface FakeSocketMode {
  connections: FakeSocketConnection[];
  envelopes: FakeEnvelope[];
  /** Acks whose envelope_id the fake never sent, or sent and saw acked already. */
  strayAcks: unknown[];
  /** How many times `apps.connections.open` was answered with a URL. */
  urlsIssued(): number;
  /** Sends an envelope; resolves with it once acked (rejects if its connection closes first). */
  send(
    type: EnvelopeType,
    payload: Record<string, unknown>,
    options?: SendOptions,
  ): Promise<FakeEnvelope>;
  /** Cuts a connection without a close frame, as a lost network would. Default: every open one. */
  drop(connectionId?: number): void;
  /** Sends Slack's `disconnect` message, asking the client to reconnect. Default: every open one. */
  requestReconnect(reason?: string, connectionId?: number): void;
  /** Resolves once `count` connections have been opened in all (a signal, not a sleep). */
  openedAtLeast(count: number): Promise<void>;
}

export interface SocketModeHost {
  socket: FakeSocketMode;
  /** The `apps.connections.open` method, checked against the app token. */
  connectionsOpen(token: string | null): Reply;
  /** For the HTTP server's `upgrade` event. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

interface Pending {
  resolve(envelope: FakeEnvelope): void;
  reject(error: Error): void;
}

/** Socket Mode for a fake Slack whose HTTP origin is read when a URL is issued. */
export function createSocketMode(appToken: string, origin: () => string): SocketModeHost {
  const wss = new WebSocketServer({ noServer: true });
  const tickets = new Set<string>();
  const sockets = new Map<number, WebSocket>();
  const connections: FakeSocketConnection[] = [];
  const envelopes: FakeEnvelope[] = [];
  const strayAcks: unknown[] = [];
  const pending = new Map<string, Pending>();
  const waiters: { count: number; resolve(): void }[] = [];
  let issued = 0;

  function accept(ws: WebSocket): void {
    const connection: FakeSocketConnection = {
      id: connections.length + 1,
      openedAt: Date.now(),
      open: true,
    };
    connections.push(connection);
    sockets.set(connection.id, ws);
    ws.on("message", (data) => receive(String(data)));
    ws.on("close", () => {
      connection.open = false;
      sockets.delete(connection.id);
      for (const envelope of envelopes) {
        if (envelope.connectionId !== connection.id || envelope.ackedAt !== null) continue;
        pending
          .get(envelope.envelopeId)
          ?.reject(new Error(`connection ${connection.id} closed before the ack`));
        pending.delete(envelope.envelopeId);
      }
    });
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: sockets.size,
        debug_info: { host: "fake-slack", approximate_connection_time: 18060 },
        connection_info: { app_id: "A0FAKEAPP" },
      }),
    );
    for (const waiter of waiters.filter((w) => connections.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  function receive(text: string): void {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      strayAcks.push(text);
      return;
    }
    const envelope = envelopes.find(
      (e) => e.envelopeId === message.envelope_id && e.ackedAt === null,
    );
    if (!envelope) {
      strayAcks.push(message);
      return;
    }
    envelope.ackedAt = Date.now();
    envelope.ackPayload = message.payload ?? null;
    pending.get(envelope.envelopeId)?.resolve(envelope);
    pending.delete(envelope.envelopeId);
  }

  function openSockets(connectionId?: number): [number, WebSocket][] {
    const all = [...sockets.entries()];
    return connectionId === undefined ? all : all.filter(([id]) => id === connectionId);
  }

  const socket: FakeSocketMode = {
    connections,
    envelopes,
    strayAcks,
    urlsIssued: () => issued,
    send(type, payload, options = {}) {
      const [target] = openSockets(options.connectionId);
      if (!target) return Promise.reject(new Error("no open Socket Mode connection to send to"));
      const [connectionId, ws] = target;
      const envelope: FakeEnvelope = {
        envelopeId: options.envelopeId ?? randomUUID(),
        type,
        payload,
        connectionId,
        retryAttempt: options.retryAttempt ?? 0,
        sentAt: Date.now(),
        ackedAt: null,
        ackPayload: null,
      };
      envelopes.push(envelope);
      const acked = new Promise<FakeEnvelope>((resolve, reject) => {
        pending.set(envelope.envelopeId, { resolve, reject });
      });
      ws.send(
        JSON.stringify({
          envelope_id: envelope.envelopeId,
          type,
          payload,
          accepts_response_payload: type === "slash_commands",
          ...(type === "events_api"
            ? { retry_attempt: envelope.retryAttempt, retry_reason: "" }
            : {}),
        }),
      );
      return acked;
    },
    drop(connectionId) {
      for (const [, ws] of openSockets(connectionId)) ws.terminate();
    },
    requestReconnect(reason = "refresh_requested", connectionId) {
      for (const [, ws] of openSockets(connectionId)) {
        ws.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: "fake-slack" } }));
      }
    },
    openedAtLeast(count) {
      if (connections.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };

  return {
    socket,
    connectionsOpen(token) {
      if (!token) return fail("not_authed");
      // A bot or user token is refused as Slack refuses it: the wrong kind, not a wrong value.
      if (!token.startsWith("xapp-")) return fail("not_allowed_token_type");
      if (token !== appToken) return fail("invalid_auth");
      const ticket = randomUUID();
      tickets.add(ticket);
      issued += 1;
      const url = new URL(`/link/?ticket=${ticket}&app_id=A0FAKEAPP`, origin());
      url.protocol = "ws:";
      return ok({ url: url.toString() });
    },
    upgrade(req, duplex, head) {
      const url = new URL(req.url ?? "/", origin());
      const ticket = url.searchParams.get("ticket") ?? "";
      // A URL from apps.connections.open is good for one connection, as Slack's is.
      if (url.pathname !== "/link/" || !tickets.delete(ticket)) {
        duplex.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
        return;
      }
      wss.handleUpgrade(req, duplex, head, accept);
    },
    close() {
      for (const ws of sockets.values()) ws.terminate();
      wss.close();
    },
  };
}
