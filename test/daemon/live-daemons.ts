import { afterEach } from "vitest";
import { type DaemonProcess, runCli } from "./daemon-process.js";
import { startLiveSetup } from "./live-setup.js";

/** What test daemons run on: their config, their environment, and how to close it all. */
interface DaemonSetup {
  configPath: string;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/**
 * A test file's setups and the daemons its tests start on them: after each test every daemon is
 * SIGKILLed and the setup closed. Call it at the top of the file. `setup(...)` starts a setup
 * with `startSetup`; `start()` a daemon (`node dist/cli.js start`) on it.
 */
export function daemonsPerTest<S extends DaemonSetup, A extends unknown[]>(
  startSetup: (...options: A) => Promise<S>,
) {
  let current: S | null = null;
  const children: DaemonProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.child.kill("SIGKILL");
      await child.exit;
    }
    await current?.close();
    current = null;
  });
  return {
    async setup(...options: A): Promise<S> {
      current = await startSetup(...options);
      return current;
    },
    /** `start --config <setup's config> ...args`. */
    start(setup: S, args: string[] = []): DaemonProcess {
      const daemon = runCli(["start", "--config", setup.configPath, ...args], setup.env);
      children.push(daemon);
      return daemon;
    },
  };
}

/** The live setups (the fakes: emulator, Slack, SMTP) and the daemons run on them. */
export function useLiveDaemons() {
  return daemonsPerTest(startLiveSetup);
}
