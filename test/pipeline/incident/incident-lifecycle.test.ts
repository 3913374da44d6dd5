import { describeIncidentLifecycle, sqliteLedger } from "./incident-lifecycle.js";

describeIncidentLifecycle("SQLite", sqliteLedger);
