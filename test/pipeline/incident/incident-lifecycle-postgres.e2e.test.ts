import { createLogger } from "../../../src/logger.js";
import { openPostgresLedger } from "../../../src/state/postgres/postgres-ledger.js";
import { createTestDatabase } from "../../postgres/create-test-database.js";
import { describeIncidentLifecycle } from "./incident-lifecycle.js";

const logger = createLogger({ level: "silent" });

describeIncidentLifecycle("PostgreSQL", async () =>
  openPostgresLedger(await createTestDatabase(), { logger }),
);
