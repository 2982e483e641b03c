# The Node.js LTS line to build and run on: 24 (the default) or 22, the lines package.json supports
# (docker build --build-arg NODE_MAJOR=22 .).
ARG NODE_MAJOR=24

# Build stage: compiles TypeScript and better-sqlite3's native addon.
FROM node:${NODE_MAJOR}-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY src ./src
COPY test ./test
COPY bench ./bench
COPY scripts ./scripts
COPY web ./web
COPY migrations ./migrations
RUN npm ci --no-audit --no-fund && npm prune --omit=dev

# Runtime stage: the compiled service and production dependencies only, as a non-root user.
FROM node:${NODE_MAJOR}-bookworm-slim
ENV NODE_ENV=production \
    DATABASE_URL=sqlite:/data/currency-rates.db \
    PORT=3000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/web ./dist/web
COPY --from=build /app/package.json ./
COPY migrations ./migrations
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["serve"]
