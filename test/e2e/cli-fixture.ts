import { afterAll, beforeAll } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/insights/emulator/start-emulator.js";
import { API_KEY, TODAY, tempDir } from "./e2e-setup.js";
import { requireBuiltCli } from "./run-cli.js";

/** What a test file's tests run the built CLI against. */
export interface CliFixture {
  /** The emulator, on the shared TODAY and API_KEY. */
  readonly emulator: RunningEmulator;
  /** A temp dir of the file's own, for configs, outboxes and ledgers. */
  readonly dir: string;
}

/**
 * The built CLI against the emulator, for one test file: the emulator and a temp dir started
 * before the file's tests and removed after them. Read its fields inside a test.
 */
export function cliAgainstEmulator(): CliFixture {
  let emulator: RunningEmulator | undefined;
  let dirs: Awaited<ReturnType<typeof tempDir>> | undefined;
  beforeAll(async () => {
    requireBuiltCli();
    emulator = await startEmulator({ today: TODAY, key: API_KEY });
    dirs = await tempDir();
  });
  afterAll(async () => {
    await emulator?.close();
    await dirs?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the CLI fixture is read before its tests start");
    return value;
  };
  return {
    get emulator() {
      return started(emulator);
    },
    get dir() {
      return started(dirs).dir;
    },
  };
}
