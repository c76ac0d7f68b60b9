# syntax=docker/dockerfile:1
# Kutu: one image for web processes (`node apps/server/src/main.ts`, JOBS=off) and workers
# (`node apps/server/src/worker.ts`). See docs/deploy.md. Not built by the project's tests.

# --- build: dependencies, the web app, then only what runs ---
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/vision/package.json packages/vision/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- runtime: Node 24 (runs the TypeScript sources directly), Debian's PyTorch for retraining, eSpeak NG
# and ffmpeg for the spoken answers and voice recordings (docs/decisions/0087), and
# pg_dump/pg_restore for backups: version 17 like compose.yaml's server (pg_dump must be at least the
# server's version; Debian 12 has 15), from the PostgreSQL project's apt repository, whose key comes with
# Debian's postgresql-common ---
FROM node:24-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 python3-torch python3-torchvision python3-onnx \
     espeak-ng ffmpeg postgresql-common ca-certificates \
  && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
  && apt-get install -y --no-install-recommends postgresql-client-17 \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --create-home --home-dir /var/lib/kutu kutu \
  && install -d -o kutu -g kutu /var/lib/kutu-backups
WORKDIR /app
# Sources, pruned node_modules, the built web app, the committed model (packages/vision/models) and the
# base training images (datasets/rust3); owned by root, so the app cannot change its own code.
COPY --from=build /app /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/kutu
USER kutu
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/`).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/server/src/main.ts"]
