#!/usr/bin/env bash
# Brook's one test command (the README's, and what CI runs): installs what a fresh machine lacks, then lints,
# type-checks, builds, and runs every test tier. Long soak variants run only with BROOK_SOAK=1.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq redis-server >/dev/null) ||
      echo "warning: could not install redis-server; cluster tests need it (apt-get install -y redis-server)"
  else
    echo "warning: redis-server is missing; cluster tests need it: sudo apt-get install -y redis-server"
  fi
fi

if [ ! -x "${BROOK_CHROMIUM:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) ||
      echo "warning: could not install chromium; the console's browser tests need it (apt-get install -y chromium)"
  else
    echo "warning: chromium is missing; the console's browser tests need it: sudo apt-get install -y chromium"
  fi
fi

npm run lint --silent
npx tsc -p tsconfig.test.json --noEmit
npm run build --silent
mkdir -p .test-results
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.test-results/vitest.json || status=$?
node scripts/test-summary.mjs .test-results/vitest.json
exit "$status"
