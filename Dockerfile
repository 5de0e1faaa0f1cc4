# A Brook broker image: build the TypeScript (and the native CRC-32C with the full image's C compiler), keep
# production dependencies only.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json openapi.yaml ./
COPY src ./src
COPY native ./native
COPY scripts/build-native.mjs ./scripts/
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production BROOK_HOST=0.0.0.0 BROOK_DATA_DIR=/var/lib/brook
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json openapi.yaml ./
VOLUME /var/lib/brook
EXPOSE 8082 9092
CMD ["node", "dist/main.js"]
