// Turns off V8's allocation-site pretenuring in the broker process, so that the objects a request allocates from
// object and array literals start in the young generation, as the request's other objects do.
//
// Why (W1 after an idle stretch, issue 17; V8 11.3, pretenuring-handler.cc): V8 counts, per literal site, how many
// of its objects survive a young-generation collection (scavenge). A site with at least 100 objects of which 85 %
// survived, seen at a scavenge while the young generation is at its largest, is pretenured: its objects are then
// allocated straight in the old generation, until a mark-compact finds the old generation mostly garbage and
// resets every site. When produce traffic comes back after an idle stretch, the young generation is at its
// smallest (1 MB: V8 shrinks it at the first scavenge after a quiet spell, the idle reducer at its reduction) and
// scavenges run every few milliseconds, so a request's objects (its pending append, its write in flight, its
// body's chunk list) outlive one or two of them; V8 then grows the young generation to its largest within a few
// scavenges (the reducer's fast growth, idle-memory-reducer.ts), and the next scavenge can pretenure such a site.
// From then on every request's literal object is born old and points at the request's young Buffers: an old
// object is a root for every scavenge, live or not, so those Buffers (the body's socket chunks, the batch, ~250 KB
// a W1 request) outlive the scavenges until a mark-compact, V8 counts them as external memory, and its
// external-memory trigger (64 MB above the level at the last mark-compact) starts mark-compact after mark-compact
// 0.2-0.5 s apart (GC callback flags 40 and 104), a request then costing 0.9-1.05 ms of CPU instead of 0.55-0.67.
// Pretenuring pays where a site's objects really live long (start-up's metadata); a broker's long-lived state is
// built once at start and by the few literals of a topic or partition creation, which a scavenge or two promote.
//
// V8 reads the flag at each scavenge's feedback (a site decided before keeps its decision), so it is set first
// thing at start. A process launched with a pretenuring flag of its own keeps it.
import { setFlagsFromString } from 'node:v8';

export const NO_PRETENURING_FLAG = '--no-allocation-site-pretenuring';

/** Whether the launch flags (the process's, then NODE_OPTIONS') set V8's allocation-site pretenuring either way. */
export function launchSetsPretenuring(execArgv: readonly string[], nodeOptions = ''): boolean {
  return [...nodeOptions.split(/\s+/), ...execArgv].some((arg) =>
    /^--(?:no[-_])?allocation[-_]site[-_]pretenuring$/.test(arg),
  );
}

/** Turns V8's allocation-site pretenuring off in this process, unless its launch flags set it; whether it did. */
export function turnOffPretenuring(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  if (launchSetsPretenuring(execArgv, nodeOptions)) return false;
  // Node 20 leaves V8's flags writable after start (old-generation-budget.ts sets another the same way)
  setFlagsFromString(NO_PRETENURING_FLAG);
  return true;
}
