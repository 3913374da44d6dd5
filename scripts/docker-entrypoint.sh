#!/bin/sh
# The image's entrypoint: `insights-reporter <command>` in /app. The daemon (`start`) runs with
# a 2 MB young generation: V8 grows it while the config is parsed and never gives the pages
# back, and the daemon at rest then holds ~113 MB instead of ~86 MB (docs/performance.md).
# Other commands keep V8's default, which a long export needs: with the small young generation
# more of its short-lived rows outlive it, and its peak grew from ~199 to ~226 MB.
if [ "$1" = "start" ]; then
  exec node --max-semi-space-size=2 dist/cli.js "$@"
fi
exec node dist/cli.js "$@"
