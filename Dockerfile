# The API in a container (docker-compose.yml runs it beside PostgreSQL); DATABASE_URL and
# JWT_SECRET come from the environment.
#
# Stage 1 compiles: every dependency, the compilers included (`npm ci`), then `npm run build`
# writes dist/ (the server, its parameter files and modules, the command-line tools).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY src ./src
COPY scripts ./scripts
RUN npm run build

# Stage 2 runs: production dependencies only (no compiler, no test tool, no browser), dist/ from
# stage 1, as the unprivileged `node` user, NODE_ENV=production (Express and Apollo answer errors
# without stack traces).
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
# typescript arrives as i18next's optional peer (the lock file's "devOptional"), which --omit=dev
# alone keeps; nothing loads it, so it goes.
RUN npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY scripts/run.cjs ./scripts/run.cjs
COPY schema.graphql ./
USER node
EXPOSE 4000
# node itself, not npm, receives SIGTERM: the API finishes the requests in flight and exits 0.
CMD ["node", "--max-semi-space-size=32", "dist/main.js"]
