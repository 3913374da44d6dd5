import type { Ledger, SyncLedger } from "../ledger.js";

// A store whose calls answer at once behind the asynchronous Ledger interface. Each call still
// runs to its end before anything else does (better-sqlite3 blocks), so a read-then-write inside
// one method stays atomic; across two calls, as with PostgreSQL, only a conditional statement is.

export function asyncLedger(sync: SyncLedger): Ledger {
  const lift =
    <A extends unknown[], R>(call: (...args: A) => R) =>
    async (...args: A): Promise<R> =>
      call(...args);
  return {
    location: sync.location,
    shared: sync.shared,
    fileProblem: () => sync.fileProblem(),
    reachable: lift(sync.reachable),
    recordSlot: lift(sync.recordSlot),
    getSlot: lift(sync.getSlot),
    isSlotDelivered: lift(sync.isSlotDelivered),
    claimSlotRun: lift(sync.claimSlotRun),
    releaseSlotRun: lift(sync.releaseSlotRun),
    claimDelivery: lift(sync.claimDelivery),
    holdsClaim: lift(sync.holdsClaim),
    markSent: lift(sync.markSent),
    markFailed: lift(sync.markFailed),
    partsDone: lift(sync.partsDone),
    recordPart: lift(sync.recordPart),
    forgetParts: lift(sync.forgetParts),
    dueRetries: lift(sync.dueRetries),
    alertStates: lift(sync.alertStates),
    firingAlerts: lift(sync.firingAlerts),
    recordAlertEvaluation: lift(sync.recordAlertEvaluation),
    getAlertEvaluation: lift(sync.getAlertEvaluation),
    alertEvaluations: lift(sync.alertEvaluations),
    jobFirstSeen: lift(sync.jobFirstSeen),
    addSilence: lift(sync.addSilence),
    silences: lift(sync.silences),
    endSilence: lift(sync.endSilence),
    acknowledge: lift(sync.acknowledge),
    acknowledgements: lift(sync.acknowledgements),
    acknowledgement: lift(sync.acknowledgement),
    clearAcknowledgements: lift(sync.clearAcknowledgements),
    history: lift(sync.history),
    recordIncident: lift(sync.recordIncident),
    getIncident: lift(sync.getIncident),
    openIncidents: lift(sync.openIncidents),
    resolveIncident: lift(sync.resolveIncident),
    acquireDaemonLease: lift(sync.acquireDaemonLease),
    renewLease: lift(sync.renewLease),
    releaseLease: lift(sync.releaseLease),
    close: lift(sync.close),
  };
}
