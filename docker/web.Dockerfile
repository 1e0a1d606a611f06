# syntax=docker/dockerfile:1
# One image pattern for the static web hosts: the shell host, and one image per microfrontend serving its own
# versioned build at /mfe/<name>/<version>/. Build from the repository root:
#   docker build -f docker/web.Dockerfile --build-arg WORKSPACE=mfe-create -t productgen/mfe-create:0.1.0 .
#   docker build -f docker/web.Dockerfile --build-arg WORKSPACE=shell -t productgen/shell:0.1.0 .
ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json -delete

# The browser build (webpack) of the shell or a microfrontend, and the web host that serves it.
FROM ${NODE_IMAGE} AS build
ARG WORKSPACE
WORKDIR /app
COPY --from=manifests /src/ ./
RUN npm ci --ignore-scripts --no-audit --no-fund -w "${WORKSPACE}" -w packages/web-host --include-workspace-root
COPY . .
RUN node scripts/docker/build-workspace.mjs "${WORKSPACE}" /site \
 && node scripts/docker/build-workspace.mjs packages/web-host /out \
 && mkdir -p /out/site && cp -r "/site/${WORKSPACE}/dist/." /out/site/

FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY --from=manifests /src/ ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w packages/web-host --include-workspace-root=false

FROM ${NODE_IMAGE}
# The workspace's package.json version (scripts/mfe-release.mjs passes it).
ARG VERSION
# The shell host reads the registry from REGISTRY_FILE (a mounted file); a microfrontend host serves its build at
# /mfe/<MFE_NAME>/<MFE_VERSION>/. WEB_HOST_ROLE, MFE_NAME and MFE_VERSION are set by the deployment.
ENV NODE_ENV=production \
    STATIC_DIR=/app/site \
    PORT=8080 \
    MFE_VERSION=${VERSION}
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /out/ ./
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "packages/web-host/dist/main.js"]
