import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { CLI, median } from "./bench-support.js";

// How long a CLI command takes from `node` to its exit: `check-config` of the demo config,
// which reads and checks the config and plans every schedule's next fires, with no network.

const DEMO = fileURLToPath(new URL("../config/demo.yaml", import.meta.url));

export function measureStartup(runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [CLI, "check-config", "--config", DEMO], {
      env: {
        PATH: process.env.PATH ?? "",
        INSIGHTS_API_URL: "http://127.0.0.1:9/api/external/v1",
        INSIGHTS_API_KEY: "bench-key",
        SLACK_BOT_TOKEN: "xoxb-bench",
        SMTP_URL: "smtp://127.0.0.1:2525",
      },
      stdio: "ignore",
    });
    const ms = performance.now() - started;
    if (result.status !== 0) throw new Error(`check-config exited with ${result.status}`);
    if (i > 0) times.push(ms); // the first run warms the disk cache
  }
  return median(times);
}
