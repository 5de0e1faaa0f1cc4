import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { launchSetsPretenuring, turnOffPretenuring } from './allocation-site-pretenuring.js';

// A worker of this process (V8's flags are the process's) with a 2 MB young generation, always at its largest: one
// literal site whose objects outlive scavenges, as a request's objects do right after an idle stretch, then how
// many of 1,000 new objects from that site were born in the old generation.
const SURVIVING_SITE = `
const { parentPort } = require('node:worker_threads');
const kept = [];
function made(i) { return { i, next: null }; }
for (let round = 0; round < 100; round++) {
  for (let i = 0; i < 20000; i++) kept.push(made(i));
  if (kept.length > 100000) kept.splice(0, 50000);
}
let old = 0;
for (let i = 0; i < 1000; i++) if (!%InYoungGeneration(made(i))) old++;
parentPort.postMessage(old);
`;

function bornOld(): Promise<number> {
  setFlagsFromString('--allow-natives-syntax');
  return new Promise((resolve, reject) => {
    const worker = new Worker(SURVIVING_SITE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 2 } });
    worker.once('message', (old: number) => resolve(old));
    worker.once('error', reject);
  });
}

describe('turnOffPretenuring', () => {
  afterEach(() => {
    // V8's defaults again for whatever else runs in this process
    setFlagsFromString('--allocation-site-pretenuring');
    setFlagsFromString('--no-allow-natives-syntax');
  });

  it('keeps a literal whose objects outlive scavenges in the young generation, where V8 would pretenure it', async () => {
    expect(await bornOld()).toBe(1000);
    expect(turnOffPretenuring([], '')).toBe(true);
    expect(await bornOld()).toBe(0);
  });

  it('leaves a pretenuring flag given at launch as it is', async () => {
    expect(turnOffPretenuring(['--allocation-site-pretenuring'], '')).toBe(false);
    expect(await bornOld()).toBe(1000);
  });
});

describe('launchSetsPretenuring', () => {
  it('finds the flag either way, in the process flags or NODE_OPTIONS, with dashes or underscores', () => {
    expect(launchSetsPretenuring(['--no-allocation-site-pretenuring'])).toBe(true);
    expect(launchSetsPretenuring([], '--max-old-space-size=512 --allocation_site_pretenuring')).toBe(true);
    expect(launchSetsPretenuring(['--expose-gc'], '--heap-growing-percent=50')).toBe(false);
    expect(launchSetsPretenuring(['--allocation-site-pretenuring-extra'])).toBe(false);
  });
});
