# syntax=docker/dockerfile:1
# Multi-stage build: compile TypeScript, pre-bundle the workflows and build the web console
# (console/, its own package.json) with the full toolchain, then ship only production
# dependencies and the build output, running as a non-root user.
# One image serves both processes: `node dist/api/main.js` (default) and `node dist/worker/main.js`.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY console/package.json console/package-lock.json ./console/
# Stamped as scripts/ensure-console.sh stamps it, so the build step below does not install again.
RUN cd console && (npm ci --no-audit --no-fund || npm install --no-audit --no-fund) \
 && sha256sum package-lock.json | cut -d' ' -f1 > node_modules/.installed-lock.sha256
COPY src ./src
COPY scripts ./scripts
COPY console ./console
RUN bash scripts/ensure-console.sh
RUN npx tsc -p tsconfig.build.json \
 && npx tsx scripts/bundle-workflows.ts dist/workflow-bundle.js \
 && (cd src && find . -name '*.json' -exec cp --parents {} ../dist/ \;)

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN (npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund) && npm cache clean --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080 \
    DATA_DIR=/var/lib/ai-workspace \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The console's built assets; the API serves them at /console/ (dist/api/console.js reads ../../console/dist).
COPY --from=build /app/console/dist ./console/dist
COPY package.json ./
RUN mkdir -p /var/lib/ai-workspace && chown node:node /var/lib/ai-workspace
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The API's young-generation bound (src/node-flags.ts): V8 reads it only from the command line.
CMD ["node", "--max-semi-space-size=8", "dist/api/main.js"]
