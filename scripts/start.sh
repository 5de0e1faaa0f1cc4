#!/usr/bin/env bash
# `npm start`: one broker, single node, embedded coordination store, data in ./data (BROOK_DATA_DIR).
# Installs and builds first when needed, so it is the whole set-up on a fresh machine. Flags pass through:
# `npm start -- --port 8083`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run build --silent
exec node dist/main.js "$@"
