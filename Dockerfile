# insights-reporter daemon image. Build: docker build -t insights-reporter .
# Run:   docker run -v reporter-data:/data -v $PWD/config:/app/config:ro \
#          -e INSIGHTS_API_URL -e INSIGHTS_API_KEY -e SLACK_BOT_TOKEN -e SMTP_URL \
#          -p 9464:9464 insights-reporter

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts and no compiler: on Node 24 the ledger opens with better-sqlite3 13, whose
# Node-API binaries ship in its package. better-sqlite3 12, the driver for Node 20, is left
# unbuilt: compiled against Node 24.19+ headers it aborts the daemon (src/state/sqlite/sqlite.ts).
# 13 ships binaries for Linux (glibc, musl), macOS and Windows on x64 and arm64 and never
# compiles, so the build fails here, not at the container's start, on any other platform.
RUN npm ci --ignore-scripts \
  && node -e "new (require('better-sqlite3-napi'))(':memory:').close()"
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The CLI's bundle, built after tsc (esbuild's binary comes in its platform package, no script).
COPY scripts/bundle-cli.ts ./scripts/
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    REPORTER_CONFIG=/app/config/reporter.yaml
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY config ./config
# The charts' font (DejaVu Sans, licence beside it): text is never set in a system font.
COPY assets ./assets
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||9464)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node, with a smaller young generation for the daemon (`start`): see the script.
COPY scripts/docker-entrypoint.sh ./docker-entrypoint.sh
ENTRYPOINT ["/app/docker-entrypoint.sh"]
CMD ["start"]
