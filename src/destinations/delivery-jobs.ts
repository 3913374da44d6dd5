import type { DeliveryJob } from "../deliver/deliver-all.js";
import type { AlertNotification } from "../messages.js";
import type { AlertJobDeps, DigestJobDeps } from "./destination-module.js";
import {
  type AlertClients,
  type AlertTargets,
  DESTINATION_KINDS,
  DESTINATIONS,
  type DestinationKind,
  type DigestClients,
  type DigestMessages,
  type DigestTargets,
} from "./registry.js";

// A digest's or an alert's delivery jobs: one for each destination kind that has both a
// rendered message and a client to send it, in the registry's order.

/** The delivery jobs of a digest, one per destination it was rendered for. */
export function digestDeliveryJobs(
  key: string,
  messages: DigestMessages,
  deps: DigestClients & DigestJobDeps & { targets: DigestTargets },
): DeliveryJob[] {
  return eachKind(<K extends DestinationKind>(kind: K) => {
    const message = messages[kind];
    const client = (deps as DigestClients)[kind];
    return message && client
      ? DESTINATIONS[kind].digestJob(key, message, client, deps, deps.targets[kind])
      : null;
  });
}

/** The delivery jobs of an alert's notification, one per destination it was rendered for. */
export function alertDeliveryJobs(
  key: string,
  notification: AlertNotification,
  deps: AlertClients & AlertJobDeps & { targets: AlertTargets },
): DeliveryJob[] {
  return eachKind(<K extends DestinationKind>(kind: K) => {
    const message = notification[kind];
    const client = (deps as AlertClients)[kind];
    return message && client
      ? DESTINATIONS[kind].alertJob(key, message, client, deps, deps.targets[kind])
      : null;
  });
}

/**
 * The jobs that tell an alert's destinations one of its fires was acknowledged: one per kind
 * that keeps each fire's state (see `acknowledgeJob`) and has a target and a client.
 */
export function acknowledgementJobs(
  fireKey: string,
  targets: AlertTargets,
  clients: AlertClients,
): DeliveryJob[] {
  return eachKind(<K extends DestinationKind>(kind: K) => {
    const target = targets[kind];
    const client = clients[kind];
    const job = DESTINATIONS[kind].acknowledgeJob;
    return target && client && job ? job(fireKey, target, client) : null;
  });
}

/** The jobs `build` makes, kind by kind in the registry's order (null: none for that kind). */
function eachKind(build: (kind: DestinationKind) => DeliveryJob | null): DeliveryJob[] {
  return DESTINATION_KINDS.flatMap((kind) => build(kind) ?? []);
}
