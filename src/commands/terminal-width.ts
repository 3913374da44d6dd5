// Kept apart from command-context, which loads the config's modules: the CLI fits its error
// messages with this before any command's module is imported.

/** Narrower than this, the preview's columns cannot fit: it is laid out for this and wraps. */
const MIN_WIDTH = 60;

/**
 * Columns to fit: the terminal's own; piped, `COLUMNS` when set (as `COLUMNS=120 … | less`);
 * else 80, the width every terminal and pager can show.
 */
export function terminalWidth(
  stream: NodeJS.WriteStream = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const fromEnv = Number.parseInt(env.COLUMNS ?? "", 10);
  const columns = stream.isTTY ? stream.columns : Number.isFinite(fromEnv) ? fromEnv : 80;
  return Math.max(MIN_WIDTH, columns || 80);
}
