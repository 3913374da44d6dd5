import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { RequestInfo } from "../insights/create-insights-client.js";
import type { SlotKind } from "../state/ledger.js";
import { registerEventLoopDelay } from "./event-loop-delay.js";
import {
  SLACK_SOCKET_STATES,
  type SlackSocketMetrics,
  type SlackSocketState,
} from "./slack-socket-state.js";

// The daemon's Prometheus metrics, in a Registry of its own (never prom-client's global one, so
// two daemons in one test process do not share counters). Labels are bounded by the config:
// team and job names, destination kinds, HTTP statuses.

/** How a slot run ended. */
export type SlotResult = "delivered" | "retrying" | "failed" | "skipped";

/** How one destination's attempt ended; `gave_up` is a failure past the slot's deadline. */
export type DeliveryMetricResult = "sent" | "recovered" | "already_sent" | "failed" | "gave_up";

/** A daemon whose destinations write to an outbox counts what they wrote as `result="outbox"`. */
export interface DaemonMetricsOptions {
  outbox?: boolean;
}

/** One scheme for digests and alerts: the team, `kind` (digest or alert) and the job's name. */
export interface JobLabels {
  team: string;
  kind: SlotKind;
  job: string;
}

export interface DaemonMetrics extends SlackSocketMetrics {
  registry: Registry;
  /** For createClients' `onApiRequest`. */
  apiRequest(info: RequestInfo): void;
  slotStarted(job: JobLabels, lagMs: number): void;
  /** A slot run ended; `trigger` is set for a run asked for from Slack, not by the schedule. */
  slotFinished(job: JobLabels, result: SlotResult, at: Date, trigger?: "slash_command"): void;
  delivery(job: JobLabels, destination: string, result: DeliveryMetricResult): void;
  ticked(at: Date, inFlight: number): void;
  /** A claim another process left stale was taken over: a slot's run, or a delivery's send. */
  claimTakenOver(job: JobLabels, what: "run" | "delivery"): void;
}

const PREFIX = "insights_reporter_";

/**
 * How often the event-loop delay histogram takes a sample. Node's histogram records the whole
 * interval between samples; the gauges (`nodejs_eventloop_lag_min/p50/p99/max_seconds`)
 * subtract it, so an idle loop reads about 0 (see event-loop-delay.ts).
 */
export const EVENT_LOOP_SAMPLING_MS = 100;

// prom-client's own event-loop histogram is replaced (its gauges include the interval); it
// samples this seldom, so it does not wake the daemon for nothing.
const REPLACED_SAMPLING_MS = 60_000;

/** An alert scope's state, as the gauge reads it at each scrape. */
export interface AlertStateSample {
  team: string;
  alert: string;
  scope: string;
  state: "ok" | "pending" | "warn" | "critical" | "no_data";
}

/** The gauge's value of each state: 0 ok … 3 critical; no_data reads as -1 (no verdict). */
const ALERT_LEVEL: Record<AlertStateSample["state"], number> = {
  ok: 0,
  pending: 1,
  warn: 2,
  critical: 3,
  no_data: -1,
};

/**
 * A fresh registry with the daemon's metrics and Node's default process metrics. `alertStates`
 * is read at each scrape, so the gauge is the ledger's word, never a copy that drifts.
 */
export function createDaemonMetrics(
  alertStates: () => Promise<readonly AlertStateSample[]> = async () => [],
  options: DaemonMetricsOptions = {},
): DaemonMetrics {
  const registry = new Registry();
  // Node's process metrics under their standard names (process_cpu_seconds_total,
  // nodejs_heap_size_used_bytes …), so stock Node.js dashboards work; ours carry PREFIX.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: REPLACED_SAMPLING_MS });
  // The event-loop delay histogram samples every 10 ms by default: a hundred wake-ups a second
  // in a daemon that otherwise sleeps for seconds. A tenth of a second is fine-grained enough
  // to see a blocked loop, and lets the daemon rest.
  registerEventLoopDelay(registry, EVENT_LOOP_SAMPLING_MS);
  const registers = [registry];

  const slots = new Counter({
    name: `${PREFIX}slots_total`,
    help: "Slot runs by result: delivered, retrying (a destination waits for a retry), failed (given up), skipped (missed, outside catch_up or superseded); trigger=slash_command for a run asked for with /insights digest.",
    labelNames: ["team", "kind", "job", "result", "trigger"] as const,
    registers,
  });
  const deliveries = new Counter({
    name: `${PREFIX}deliveries_total`,
    help: "Delivery attempts by destination kind and result: sent, recovered (found after a crash), already_sent, failed (will retry), gave_up; outbox (written to start --outbox's directory, not sent).",
    labelNames: ["team", "kind", "job", "destination", "result"] as const,
    registers,
  });
  const apiRequests = new Counter({
    name: `${PREFIX}api_requests_total`,
    help: "Requests to the insights API by HTTP status (or error), retries included.",
    labelNames: ["status"] as const,
    registers,
  });
  const apiLatency = new Histogram({
    name: `${PREFIX}api_request_duration_seconds`,
    help: "Latency of requests to the insights API, body included.",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const lastSuccess = new Gauge({
    name: `${PREFIX}last_success_timestamp_seconds`,
    help: "When a slot of the job was last delivered to every destination (Unix time).",
    labelNames: ["team", "kind", "job"] as const,
    registers,
  });
  const lag = new Histogram({
    name: `${PREFIX}slot_lag_seconds`,
    help: "How long after its scheduled fire a slot run started (catch-up and retries included).",
    labelNames: ["team", "kind", "job"] as const,
    buckets: [1, 5, 15, 60, 300, 900, 3600, 6 * 3600, 24 * 3600],
    registers,
  });
  const takenOver = new Counter({
    name: `${PREFIX}claims_taken_over_total`,
    help: "Claims taken over from a process that left them stale (it died, stalled, or lost the database): a slot's run, or a delivery's send.",
    labelNames: ["team", "kind", "job", "claim"] as const,
    registers,
  });
  const lastTick = new Gauge({
    name: `${PREFIX}last_tick_timestamp_seconds`,
    help: "When the scheduler last ticked (Unix time).",
    registers,
  });
  new Gauge({
    name: `${PREFIX}alert_state`,
    help: "Each alert scope's state: 0 ok, 1 pending, 2 warn, 3 critical; -1 no data.",
    labelNames: ["team", "kind", "job", "scope"] as const,
    registers,
    async collect() {
      const states = await alertStates();
      this.reset();
      for (const s of states) {
        this.set(
          { team: s.team, kind: "alert", job: s.alert, scope: s.scope },
          ALERT_LEVEL[s.state],
        );
      }
    },
  });
  const socketState = new Gauge({
    name: `${PREFIX}slack_socket_state`,
    help: "The Slack Socket Mode connection's state: 1 for the current one (connecting, connected, reconnecting, refused, failed, stopped), 0 for the others. Absent without slack.app_token.",
    labelNames: ["state"] as const,
    registers,
  });
  const socketConnects = new Counter({
    name: `${PREFIX}slack_socket_connects_total`,
    help: "Socket Mode connections Slack greeted (hello), reconnects included.",
    registers,
  });
  const envelopes = new Counter({
    name: `${PREFIX}slack_socket_envelopes_total`,
    help: "Envelopes from Slack (interactive, slash_commands, events_api) by ack result: acked, ack_failed (Slack sends it again).",
    labelNames: ["type", "result"] as const,
    registers,
  });
  const ackLatency = new Histogram({
    name: `${PREFIX}slack_socket_ack_seconds`,
    help: "From an envelope's arrival to its ack being written; Slack allows 3 s.",
    buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 1, 3],
    registers,
  });
  const inFlight = new Gauge({
    name: `${PREFIX}slots_in_flight`,
    help: "Slot runs in progress.",
    registers,
  });

  return {
    registry,
    apiRequest: (info) => {
      apiRequests.inc({ status: String(info.status) });
      apiLatency.observe(info.durationMs / 1000);
    },
    slotStarted: (job, lagMs) => lag.observe(job, Math.max(0, lagMs) / 1000),
    slotFinished: (job, result, at, trigger) => {
      slots.inc({ ...job, result, ...(trigger ? { trigger } : {}) });
      if (result === "delivered") lastSuccess.set(job, at.getTime() / 1000);
    },
    delivery: (job, destination, result) =>
      deliveries.inc({
        ...job,
        destination: destinationKind(destination),
        result: options.outbox && result === "sent" ? "outbox" : result,
      }),
    claimTakenOver: (job, what) => takenOver.inc({ ...job, claim: what }),
    socketState: (current: SlackSocketState) => {
      for (const state of SLACK_SOCKET_STATES)
        socketState.set({ state }, state === current ? 1 : 0);
    },
    socketConnected: () => socketConnects.inc(),
    socketEnvelope: (type, result, ackMs) => {
      envelopes.inc({ type, result });
      ackLatency.observe(ackMs / 1000);
    },
    ticked: (at, running) => {
      lastTick.set(at.getTime() / 1000);
      inFlight.set(running);
    },
  };
}

/** `slack:C0123` → `slack`: the channel or recipients would make a label per destination. */
function destinationKind(destination: string): string {
  return destination.split(":", 1)[0] ?? destination;
}
