# syntax=docker/dockerfile:1
# One image pattern for every back-end service and worker. Build from the repository root:
#   docker build -f docker/service.Dockerfile --build-arg WORKSPACE=services/auth \
#     --build-arg ENTRY=services/auth/dist/main.js -t productgen/auth:0.1.0 .
# The render worker is the generation image with the command `node services/generation/dist/worker.js`.
ARG NODE_IMAGE=node:20.20-bookworm-slim

# Only the package manifests, so the dependency layers below are rebuilt when a manifest changes, not a source file.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete

# Dependencies of this workspace (and the root's build tools), then the build of it and its @productgen packages.
FROM ${NODE_IMAGE} AS build
ARG WORKSPACE
WORKDIR /app
COPY --from=manifests /src/ ./
RUN npm ci --ignore-scripts --no-audit --no-fund -w "${WORKSPACE}" --include-workspace-root
COPY . .
RUN node scripts/docker/build-workspace.mjs "${WORKSPACE}" /out

# Production dependencies of this workspace only.
FROM ${NODE_IMAGE} AS production-dependencies
ARG WORKSPACE
WORKDIR /app
COPY --from=manifests /src/ ./
# onnxruntime-node ships macOS and Windows binaries too (about 220 MB): only Linux's stay.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w "${WORKSPACE}" --include-workspace-root=false \
 && find node_modules -path '*/onnxruntime-node/bin/napi-v*' -mindepth 1 -maxdepth 5 -type d \
      \( -name darwin -o -name win32 \) -prune -exec rm -rf {} +

FROM ${NODE_IMAGE}
ARG ENTRY
ENV NODE_ENV=production \
    SERVICE_ENTRY=${ENTRY} \
    METRICS_PORT=9464 \
    MODELS_DIR=/models
WORKDIR /app
# Files stay owned by root and read-only to the process: the root filesystem can be mounted read-only
# (writable: /tmp and, for generation, the models volume).
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /out/ ./
COPY models/manifest.json ./models/manifest.json
USER node
EXPOSE 8080 9464
# Every process serves /healthz on its metrics port (the render worker has no other port).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.METRICS_PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["/bin/sh", "-c", "exec node \"$SERVICE_ENTRY\""]
