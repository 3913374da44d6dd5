import { afterEach } from "vitest";
import { type DaemonProcess, runCli } from "./daemon-process.js";
import { type LiveConfigOptions, type LiveSetup, startLiveSetup } from "./live-setup.js";

/**
 * A test file's live setups and the daemons its tests start: after each test the daemons are
 * killed and the setup closed. `setup()` starts the fakes; `start()` a daemon against them.
 */
export function useLiveDaemons() {
  let live: LiveSetup | null = null;
  const children: DaemonProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.child.kill("SIGKILL");
      await child.exit;
    }
    await live?.close();
    live = null;
  });
  return {
    async setup(options?: LiveConfigOptions): Promise<LiveSetup> {
      live = await startLiveSetup(options);
      return live;
    },
    /** `start --config <setup's config> ...args`. */
    start(setup: LiveSetup, args: string[] = []): DaemonProcess {
      const daemon = runCli(["start", "--config", setup.configPath, ...args], setup.env);
      children.push(daemon);
      return daemon;
    },
  };
}
