#!/usr/bin/env bash
# Brook's one test command (the README's, and what CI runs): installs what a fresh machine lacks, then lints,
# type-checks, builds, and runs every test tier. Long soak variants run only with BROOK_SOAK=1.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
# The programs the end-to-end tests run for real: a Redis for the cluster tests, kcat (librdkafka) for the Kafka
# listener's tests, Chromium for the console's browser tests. Installed with apt-get when absent and possible.
ensure_tool() { # ensure_tool <command> <debian package> <what needs it>
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    if [ -z "${apt_updated:-}" ]; then apt-get update -qq || true; apt_updated=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null && return 0
  fi
  echo "warning: $1 is missing and could not be installed; $3 need it: sudo apt-get install -y $2"
}
ensure_tool redis-server redis-server "the cluster tests"
ensure_tool kcat kcat "the Kafka listener tests"
ensure_tool chromium chromium "the console's browser tests"

npm run lint --silent
npx tsc -p tsconfig.test.json --noEmit
npm run build --silent
mkdir -p .test-results
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.test-results/vitest.json || status=$?
node scripts/test-summary.mjs .test-results/vitest.json
exit "$status"
