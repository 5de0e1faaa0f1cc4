// What a broker holds when it is idle: the idle memory reducer (common/idle-memory-reducer.ts) gives memory back
// once after a busy spell, never while requests keep coming: with a young-generation collection, and with V8's
// memory-reducing full GC only when the old generation grew by 32 MB since the last mark-compact (whether the load
// here reaches that depends on whether V8 ran a mark-compact during it, so the test checks that the trace agrees with
// what the reduction logged); a broker without Redis does not load ioredis.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopic, rssBytes, sleep } from './support/broker-helpers.js';
import { BrokerProcess } from './support/broker-process.js';
import { call } from './support/http.js';

const ADDON = fileURLToPath(new URL('../../dist/native/memory-reducer.node', import.meta.url));
const APP_MODULE = fileURLToPath(new URL('../../dist/app.module.js', import.meta.url));
const TRACE_GC = fileURLToPath(new URL('./support/trace-gc.mjs', import.meta.url));
const IDLE_AFTER_MS = 2_000;
const GIVEN_BACK = /idle: memory given back in \d+ ms( \(with a full collection\))?, resident (\d+) -> (\d+) MB/g;
/** A line of V8's GC trace (--trace-gc through trace-gc.mjs). */
const GC_TRACE_LINE = /^\[\d+:0x[0-9a-f]+\]\s+\d+ ms: /;
const LOW_MEMORY_GC = 'low memory notification';
/** The stretch's second reduction, when V8 kept the young generation large at the first (idle-memory-reducer.ts). */
const FOLLOW_UP = /idle \(follow-up\): memory given back/g;

describe.skipIf(!existsSync(ADDON))('idle memory reducer', () => {
  let broker: BrokerProcess;
  beforeAll(async () => {
    // 'debug' shows the reducer's line (Nest's log level); trace-gc.mjs has V8 print each GC with its reason
    broker = await BrokerProcess.start({
      logLevel: 'debug',
      env: { BROOK_IDLE_MEMORY_REDUCE_AFTER_MS: String(IDLE_AFTER_MS), NODE_OPTIONS: `--import ${TRACE_GC}` },
    });
  });
  afterAll(async () => {
    await broker?.stop();
  });

  const reductions = () => [...broker.stdout.matchAll(GIVEN_BACK)];

  it('gives memory back once the broker went idle after load, not during it, and once only', async () => {
    await createTopic(broker, 'idle-memory', 50);
    const value = Buffer.alloc(100, 'x').toString('base64');
    const records = Array.from({ length: 1_000 }, (_, i) => ({ partition: i % 50, value }));
    const before = reductions().length;
    const stdoutBefore = broker.stdout.length;
    // steady requests for 4 s, longer than the idle delay: no reduction while they come
    const loadEnds = Date.now() + 4_000;
    while (Date.now() < loadEnds) {
      const response = await call(broker.url, 'POST', '/topics/idle-memory', {
        headers: { 'content-type': 'application/vnd.kafka.binary.v2+json' },
        body: { records },
      });
      expect(response.status, response.text).toBe(200);
      expect(reductions().length).toBe(before);
    }
    const deadline = Date.now() + 20_000;
    while (reductions().length === before && Date.now() < deadline) await sleep(200);
    const found = reductions().slice(before);
    expect(found).toHaveLength(1);
    // the reduction's own GCs, traced just before its log line (the GC trace lines right above it): a scavenge (V8's
    // reason for an API-requested one is "testing"), or with a full collection LowMemoryNotification's mark-compacts,
    // and a low memory notification nowhere else since the load began
    const [, fullCollection, residentBefore, residentAfter] = found[0];
    const linesBefore = broker.stdout.slice(0, found[0].index).split('\n').slice(0, -1);
    let firstOwn = linesBefore.length;
    while (firstOwn > 0 && GC_TRACE_LINE.test(linesBefore[firstOwn - 1])) firstOwn--;
    const ownGcs = linesBefore.slice(firstOwn).join('\n');
    const lowMemoryGcs = broker.stdout
      .slice(stdoutBefore)
      .split('\n')
      .filter((line) => line.includes(LOW_MEMORY_GC)).length;
    if (fullCollection) {
      expect(ownGcs).toMatch(/Mark-Compact \(reduce\)[^\n]*low memory notification/);
      expect(ownGcs.split('\n').filter((line) => line.includes(LOW_MEMORY_GC))).toHaveLength(lowMemoryGcs);
    } else {
      expect(ownGcs).toMatch(/Scavenge[^\n]*testing/);
      expect(lowMemoryGcs).toBe(0);
    }
    expect(Number(residentAfter)).toBeLessThan(Number(residentBefore));
    expect(rssBytes(broker.child!.pid!)).toBeLessThan(Number(residentBefore) * 1e6);
    // idle for several more delays: still one, and at most its two follow-ups (followUpsMax)
    await sleep(4 * IDLE_AFTER_MS + 12_000);
    expect(reductions().length).toBe(before + 1);
    expect([...broker.stdout.matchAll(FOLLOW_UP)].length).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('modules a broker loads', () => {
  it.skipIf(!existsSync(APP_MODULE))('a broker without Redis never loads ioredis', () => {
    const script =
      `await import(${JSON.stringify(APP_MODULE)});` +
      `const { createRequire } = await import('node:module');` +
      `const loaded = Object.keys(createRequire(import.meta.url).cache);` +
      `console.log(JSON.stringify({ ioredis: loaded.some((path) => path.includes('/node_modules/ioredis/')), ` +
      `promClient: loaded.some((path) => path.includes('/node_modules/prom-client/')) }));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    // the check sees CommonJS modules: prom-client is one, loaded at start-up, so an empty answer would not pass
    expect(JSON.parse(result.stdout)).toEqual({ ioredis: false, promClient: true });
  });
});
