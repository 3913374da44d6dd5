import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { createApiClient } from "../../src/create-read-clients.js";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { createLogger } from "../../src/logger.js";
import { openLedger } from "../../src/state/sqlite/open-ledger.js";
import { Database } from "../../src/state/sqlite/sqlite.js";
import { API_KEY, tempDir, writeConfig } from "../e2e/e2e-setup.js";

// A digest does not wait for the day store's writes; one that fails is a warning that names the
// fix, with the API key redacted even when the database's error quotes it. The ledger refuses
// every stored day here (a trigger), as a full disk or a read-only file would.

let emulator: RunningEmulator;
let dirs: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  emulator = await startEmulator({ key: API_KEY, projects: 1 });
  dirs = await tempDir();
});
afterAll(async () => {
  await emulator.close();
  await dirs.remove();
});

describe("a day store write that fails behind a digest", () => {
  it("leaves the answer as it was, and is logged naming the ledger, the key redacted", async () => {
    const ledger = join(dirs.dir, "ledger.sqlite");
    await openLedger(ledger).close();
    const db = new Database(ledger);
    db.exec(
      `CREATE TRIGGER refuse_days BEFORE INSERT ON insight_days
       BEGIN SELECT RAISE(ABORT, 'disk I/O error near ${API_KEY}'); END`,
    );
    db.close();
    const configPath = await writeConfig(dirs.dir, {
      api: { url: emulator.url, key: API_KEY },
      state: { path: ledger },
      teams: [
        {
          name: "checkout",
          timezone: "Europe/Berlin",
          projects: [{ id: emulator.projects[0]?.id }],
          digests: [{ name: "daily", schedule: "0 9 * * *", slack: { channel: "C0123ABCD" } }],
        },
      ],
    });
    const config = loadConfig(configPath, { env: {}, requireCredentials: false });
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(JSON.parse(chunk.toString()));
        callback();
      },
    });
    const api = createApiClient(config, undefined, createLogger({ destination, pretty: false }));
    const projectId = emulator.projects[0]?.id ?? "";
    const answer = await api.getInsights(projectId, {
      startDate: "2026-11-01",
      endDate: "2026-11-07",
      timezone: "Europe/Berlin",
      branch: null,
      author: null,
      tags: [],
    });
    expect(answer.days).toHaveLength(7);
    // Closing commits what waits: the write fails then.
    await api.close();
    await new Promise((resolve) => setImmediate(resolve));
    const warning = lines.find((line) => String(line.msg).includes("did not keep the days"));
    expect(warning).toMatchObject({
      level: 40,
      project: projectId,
      msg: expect.stringContaining(
        "check that the ledger (state.path or state.url) can be written to",
      ),
    });
    expect(String(warning?.err)).toContain("disk I/O error near [redacted]");
    expect(JSON.stringify(lines)).not.toContain(API_KEY);
  });
});
