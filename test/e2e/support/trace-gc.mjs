// Preloaded into a broker (NODE_OPTIONS="--import .../trace-gc.mjs", where --trace-gc itself is not allowed): V8
// prints each GC, with its kind and reason, to the process's stdout.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--trace-gc');
