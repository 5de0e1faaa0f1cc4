// `node dist/main.js [--flag value ...]`: starts one broker. Flags mirror the environment variables:
// `--port 8083` is BROOK_PORT=8083, `--log-retention-check-interval-ms 1000` is
// BROOK_LOG_RETENTION_CHECK_INTERVAL_MS=1000. A bad setting stops start-up with a message naming it.
//
// This file only bounds glibc's malloc arenas (common/malloc-arenas.ts) and then loads the broker (broker-main.ts):
// the bound must be set before the broker's modules are compiled and evaluated, since that work already runs on
// threads that allocate, and each of them would keep an arena of its own. A static import would be too late: every
// module this file imported statically is compiled before this file's body runs.
import { limitMallocArenas, mallocArenaMax } from './common/malloc-arenas.js';

try {
  limitMallocArenas(mallocArenaMax(process.env));
} catch (error) {
  console.error(`brook: ${(error as Error).message}`);
  process.exit(1);
}
await import('./broker-main.js');
