# The API in a container (docker-compose.yml runs it beside PostgreSQL). TypeScript runs through
# @swc-node/register, as with `npm start`; DATABASE_URL and JWT_SECRET come from the environment.
# Introspection, and so GraphiQL's docs, is on whatever NODE_ENV says (src/server.ts).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ormconfig.ts ./
COPY src ./src
COPY scripts ./scripts
COPY schema.graphql ./
USER node
ENV PORT=4000
EXPOSE 4000
# node itself, not npm, receives SIGTERM: the API finishes the requests in flight and exits 0.
CMD ["node", "-r", "@swc-node/register", "src/main.ts"]
