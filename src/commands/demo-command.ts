import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../config/load-config.js";
import { SECRET_LOG_PATHS } from "../config/secret-paths.js";
import { createClients } from "../create-deps.js";
import { createRequestCache } from "../insights/collect-insights.js";
import { DEMO_PROJECT_COUNT } from "../insights/emulator/project-catalog.js";
import { startEmulator } from "../insights/emulator/start-emulator.js";
import { createLogger } from "../logger.js";
import { runDigest } from "../pipeline/digest/run-digest.js";
import { commandLines, shellWord } from "../render/terminal/shell-command.js";
import { renderTerminalReport } from "../render/terminal/terminal-report.js";
import { fitLine, pad, visibleLength, wrap } from "../render/terminal/terminal-style.js";
import { useColor } from "./command-context.js";
import { runDemoAlerts } from "./demo-alerts.js";
import { outboxLines } from "./outbox-lines.js";
import { terminalWidth } from "./terminal-width.js";
import { writeCharts } from "./write-charts.js";

/** The demo config ships with the package, beside `dist/`. */
const DEMO_CONFIG = fileURLToPath(new URL("../../config/demo.yaml", import.meta.url));

export interface DemoOptions {
  out: string;
  /**
   * The instant every digest and alert fires at, and the emulator's "now" (default: the time the
   * demo starts): with one given, the demo prints the same every time (README's example is it).
   */
  at?: Date;
}

/**
 * `demo`: the whole pipeline with no credentials. Starts the emulator on a free loopback port,
 * runs every digest of config/demo.yaml for "now" into an outbox, prints each digest as text,
 * and says where the files are.
 */
export async function demoCommand(opts: DemoOptions, out: (line: string) => void): Promise<number> {
  // Twelve projects: the seventh has the flaky spike the design alert fires on, the tenth and
  // eleventh the spike under a fixed threshold and the slowing runs of the data alerts, the
  // twelfth the flaky rise on one branch that the data team's attribution finds.
  const fireAt = opts.at ?? new Date();
  // The emulator's days end at the fire, so its synthetic data is that of the fire's day.
  const emulator = await startEmulator({ projects: DEMO_PROJECT_COUNT, now: () => fireAt });
  // A set-up with Socket Mode, so the alerts show what it posts, buttons included; the app
  // token is never used: the demo writes to an outbox and opens no connection.
  const env = {
    ...process.env,
    INSIGHTS_API_URL: emulator.url,
    INSIGHTS_API_KEY: "demo-key",
    SLACK_APP_TOKEN: "xapp-demo",
  };
  const logger = createLogger({ level: "warn", secretPaths: SECRET_LOG_PATHS });
  const config = loadConfig(DEMO_CONFIG, { env, requireCredentials: false });
  const clients = createClients(config, { logger, outbox: opts.out });
  const cache = createRequestCache();
  const color = useColor();
  // A newcomer's first command fits their terminal (80 columns when piped): a line wider
  // breaks between words, the rest indented.
  const width = terminalWidth();
  const say = (line: string) => {
    for (const fitted of fitLine(line, width)) out(fitted);
  };
  // Prose, which reads best wrapped as a paragraph, not as a line that goes on indented.
  const paragraph = (text: string) => {
    for (const line of wrap(text, width, "", "")) out(line);
  };
  let failed = 0;
  let chartFiles = 0;
  try {
    paragraph(
      "Every digest of config/demo.yaml, run now against the built-in emulator of the insights API (synthetic data; nothing is sent: the messages, emails and workbooks go to files).",
    );
    for (const team of config.teams) {
      for (const digest of team.digests) {
        const before = clients.outboxFiles?.length ?? 0;
        const outcome = await runDigest(
          { team, digest, fireAt },
          {
            api: clients.api,
            ...clients.digests,
            chartPainter: clients.chartPainter,
            ledger: null,
            cache,
            logger,
            outbox: true,
          },
        );
        failed += outcome.deliveries.filter((d) => d.status === "failed").length;
        out("");
        say(`━━ ${team.name} / ${digest.name} ━━ ${outcome.key}`);
        out(renderTerminalReport(outcome.report, { color, width }).trimEnd());
        const charts = await writeCharts(opts.out, outcome.charts, `${outcome.key}.`);
        chartFiles += charts.length;
        const files = [...(clients.outboxFiles ?? []).slice(before), ...charts];
        out("");
        for (const line of outboxLines(opts.out, files, "", width)) out(line);
      }
    }
    failed += await runDemoAlerts(
      config,
      clients,
      { cache, logger, now: fireAt, out: opts.out, width },
      out,
    );
    out("");
    say(`Wrote ${(clients.outboxFiles?.length ?? 0) + chartFiles} files to ${opts.out}/:`);
    for (const { column, kinds } of LEGEND) {
      for (const [files, what] of kinds) {
        const first = `  ${pad(files, column)} `;
        for (const line of wrap(what, width, first, " ".repeat(visibleLength(first)))) out(line);
      }
    }
    out("");
    const demoConfig = shellWord(shownPath(DEMO_CONFIG));
    paragraph(
      "Next: the same config against an emulator you keep running, as against your workspace:",
    );
    const command = (line: string) => {
      for (const l of commandLines(line, width)) out(l);
    };
    command("npx insights-reporter emulator --port 4010       # in another terminal");
    command(
      "export INSIGHTS_API_URL=http://127.0.0.1:4010/api/external/v1 INSIGHTS_API_KEY=demo-key",
    );
    command(`npx insights-reporter preview --config ${demoConfig} --team checkout --digest daily`);
    paragraph(
      "Then copy config/reporter.example.yaml to config/reporter.yaml with your own projects (`insights-reporter projects` lists them).",
    );
    return failed > 0 ? 1 : 0;
  } finally {
    await clients.close();
    await emulator.close();
  }
}

/**
 * The kinds of file the demo writes, each with what it is and how to look at one; a group's
 * descriptions start at one column, wrapped lines too.
 */
const LEGEND: readonly { column: number; kinds: readonly [string, string][] }[] = [
  {
    column: 13,
    kinds: [
      [
        "*.slack.json",
        "the exact Slack messages (paste `blocks` into Slack's Block Kit Builder to see them)",
      ],
      ["*.eml", "the emails, with the workbook attached — open one in your mail client"],
      ["*.xlsx", "the workbooks (Summary, Daily and About sheets; Charts with charts)"],
      ["*.png", "the trend charts of the digests that have them (also inline in the .eml)"],
      [
        "*.teams.json",
        "the Microsoft Teams cards (paste attachments[0].content into adaptivecards.io/designer)",
      ],
      ["*.webhook.json", "the signed webhook's bodies (docs/webhook-v1.schema.json)"],
    ],
  },
  {
    column: 26,
    kinds: [
      [
        "<team>.alert.*.slack.json",
        "alert messages: a fire is a new post, later changes carry thread_ts;",
      ],
      ["*.update.*.slack.json", "the edits (chat.update) of a fire's first message"],
    ],
  },
];

/** A path as a user types it from here: relative when it is below the working directory. */
function shownPath(path: string): string {
  const relativePath = relative(process.cwd(), path);
  return relativePath.startsWith("..") || isAbsolute(relativePath) ? path : relativePath;
}
