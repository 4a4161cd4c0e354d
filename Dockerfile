# Tally's image, built from the release package. The build stage runs exactly the steps of
# `npm test`'s package stage (scripts/test-package.mjs): `npm ci`, then `npm run package`
# (scripts/package.mjs: build, then release/tally-<version>/ with the runtime dependencies only);
# the runtime stage holds that folder and nothing else. README.md, "Host it".
#   docker build -t tally .
#   docker run -d -p 3000:3000 -v tally-data:/data tally

FROM node:24-bookworm AS build
WORKDIR /src
# No browser downloads: the end-to-end tools come with the workspace but never run here.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1
# The manifests first, so a change to the sources does not install the dependencies again.
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# As .ci/run does: npm ci, or npm install of the locked versions when npm ci refuses the lockfile.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY . .
RUN npm run package && mv "release/tally-$(node -p 'require("./package.json").version')" /tally

FROM node:24-bookworm-slim
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data PATH=/app/bin:$PATH
WORKDIR /app
# pg_dump and pg_restore: PostgreSQL backups (BACKUP_SCHEDULE, the backup before migrations).
# Debian's client is version 15; it backs up PostgreSQL servers up to 15.
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /tally /app
# The data folder belongs to the unprivileged user the server runs as (node, uid 1000).
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
VOLUME /data
EXPOSE 3000
# `tally healthcheck` asks /readyz (database, and Redis when set) with node alone: no shell or curl.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["node", "/app/bin/tally", "healthcheck"]
# The launcher starts node with the Node flags for its database (server/bin/node-flags.mjs); its
# `exec` leaves node as the container's process.
CMD ["tally-server"]
