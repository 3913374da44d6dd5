import { createApiClient } from "../create-deps.js";
import { createRequestCache } from "../insights/collect-insights.js";
import { createLogger } from "../logger.js";
import { renderTerminalReport } from "../render/terminal/terminal-report.js";
import { buildDigestReport } from "../run-digest.js";
import {
  findDigest,
  findTeam,
  loadCommandConfig,
  terminalWidth,
  useColor,
} from "./command-context.js";

export interface PreviewOptions {
  team: string;
  digest: string;
  at?: Date;
  config?: string;
}

/** `preview`: the digest as terminal text; nothing is sent, so no Slack or SMTP credentials are needed. */
export async function previewCommand(
  opts: PreviewOptions,
  out: (line: string) => void,
): Promise<number> {
  const config = loadCommandConfig(opts, { requireCredentials: false });
  const team = findTeam(config, opts.team);
  const digest = findDigest(team, opts.digest);
  const logger = createLogger({ level: "warn" });
  const api = createApiClient(config);
  try {
    const { report } = await buildDigestReport(
      { team, digest, fireAt: opts.at ?? new Date() },
      { api, cache: createRequestCache(), logger },
    );
    out(renderTerminalReport(report, { color: useColor(), width: terminalWidth() }).trimEnd());
    return 0;
  } finally {
    await api.close();
  }
}
