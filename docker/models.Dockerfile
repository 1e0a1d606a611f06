# syntax=docker/dockerfile:1
# The models image: every file of models/manifest.json, checked against its sha256 when the image is built, and the
# script that copies them into the generation pods' models volume (no pod downloads a model when it starts). Build
# it once per manifest from the repository root, after `npm run models:fetch` has filled models/cache:
#   npm run models:fetch
#   docker build -f docker/models.Dockerfile -t "$(node scripts/docker/models-image.mjs)" .
# The tag is derived from the manifest (scripts/docker/models-image.mjs); the Kubernetes workloads and the compose
# file name that tag, and scripts/deploy/validate.mjs checks they do. Only the manifest, models/cache and the
# script are sent to the builder (models.Dockerfile.dockerignore).
ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE}
WORKDIR /app
# Root's files, read-only to the process, like the service images.
COPY models/manifest.json ./models/manifest.json
COPY scripts/docker/install-models.mjs ./scripts/docker/install-models.mjs
COPY models/cache/ ./models/cache/
# A file that is missing or does not match its sha256 fails the build here, not a pod's start.
RUN node scripts/docker/install-models.mjs --check
ENV MODELS_DIR=/models
USER node
# A one-shot copy, no server to ask.
HEALTHCHECK NONE
CMD ["node", "scripts/docker/install-models.mjs"]
