// Hostile input: fast-check generates garbage requests for every operation in openapi.yaml (wrong types, huge and
// negative numbers, deep JSON, long strings, invalid UTF-8 in bodies and URLs, bad base64, wrong content types,
// truncated JSON; support/fuzz-requests.ts) and sends them to a real broker (support/fuzz-broker.ts). Required: no
// 500 and no 5xx the operation does not document, every error answer is {"error_code", "message"}, the process
// never exits, its RSS stays bounded, and the records, configs and committed offsets stored before are unchanged.
// Short form by default; BROOK_SOAK=1 runs the long form. The counts (requests, statuses, crashes) are printed at
// the end and written to .test-results/fuzz.json. The run is made by a quota-bearing principal (client quotas on
// User:ANONYMOUS, low enough to be hit: 429s). Generated topic patterns (catastrophic backtracking shapes,
// constructs RE2 lacks, huge repetitions, random syntax) go into the request bodies and, in a run of their own, to
// a v2 subscription: each is taken (204) or refused (422, 42206) with a message, /healthz keeps answering, and the
// counts go to .test-results/pattern-fuzz.json. The WebSocket's fuzz run is ws-fuzz.e2e.ts, hostile connections
// are hostile-connections.e2e.ts.
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import {
  broker,
  cid,
  getPast429,
  type Json,
  replenish,
  rssBytes,
  SEED,
  snapshot,
  SOAK,
  startFuzzBroker,
  stopFuzzBroker,
  V2,
} from './support/fuzz-broker.js';
import { encodeSegment, fuzzRequest, patternText, send } from './support/fuzz-requests.js';

const REQUESTS = Number(process.env.BROOK_FUZZ_REQUESTS ?? (SOAK ? 20_000 : 600));
const PATTERNS = Number(process.env.BROOK_FUZZ_PATTERNS ?? (SOAK ? 5_000 : 300));
/** Bound on the broker's resident memory during the run. */
const RSS_BYTES_MAX = 768 * 1024 * 1024;

beforeAll(startFuzzBroker);
afterAll(stopFuzzBroker);

describe('fuzzing every route in openapi.yaml', () => {
  it(
    `${REQUESTS} generated requests: no 500, no undocumented 5xx, no crash, bounded memory, stored data unchanged`,
    { timeout: SOAK ? 3_600_000 : 300_000 },
    async () => {
      const before = await snapshot();
      expect(before.records).toHaveLength(3);
      expect(before.committed).toEqual([['keep', 0, 2]]);
      const statuses: Record<string, number> = {};
      const errorCodes: Record<string, number> = {};
      const failures: string[] = [];
      let sent = 0;
      let refusedByClient = 0;
      let connectionErrors = 0;
      let rssMax = 0;
      const samples = fc.sample(fuzzRequest, { numRuns: REQUESTS, seed: SEED });
      for (const [i, sample] of samples.entries()) {
        if (i % 20 === 0) await replenish();
        const path = sample.operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeSegment(sample.pathValues[name] ?? 'x'),
        );
        const query = sample.query.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&');
        const headers: Record<string, string> = {};
        if (sample.body !== undefined && sample.contentType !== '') headers['content-type'] = sample.contentType;
        if (sample.accept !== undefined) headers.accept = sample.accept;
        const url = query ? `${path}?${query}` : path;
        const answer = await send(sample.operation.method, url, headers, sample.body);
        if (answer === 'refused') {
          refusedByClient++;
          continue;
        }
        if (answer === 'reset') {
          connectionErrors++;
          continue;
        }
        sent++;
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        const what = `${sample.operation.method} ${url.slice(0, 120)} [${sample.contentType}, ${sample.body?.length ?? 0} bytes]`;
        if (
          answer.status >= 500 &&
          (answer.status === 500 || sample.operation.responses[String(answer.status)] === undefined)
        )
          failures.push(`${answer.status} for ${what}: ${answer.body.slice(0, 300)}`);
        if (answer.status >= 400) {
          let parsed: Json | null = null;
          try {
            parsed = JSON.parse(answer.body) as Json;
          } catch {
            // reported below
          }
          if (parsed !== null) {
            const key = `${parsed.error_code} ${String(parsed.message).slice(0, 40)}`;
            errorCodes[key] = (errorCodes[key] ?? 0) + 1;
          }
          if (parsed === null || typeof parsed.error_code !== 'number' || typeof parsed.message !== 'string')
            failures.push(
              `error without {error_code, message} (${answer.status}) for ${what}: ${answer.body.slice(0, 200)}`,
            );
        }
        if (sent % 50 === 0) rssMax = Math.max(rssMax, rssBytes());
        if (broker.child?.exitCode !== null) {
          failures.push(`broker exited after ${what}`);
          break;
        }
      }
      rssMax = Math.max(rssMax, rssBytes());
      const crashes = broker.child?.exitCode === null ? 0 : 1;
      const report = {
        seed: SEED,
        generated: samples.length,
        sent,
        refusedByClient,
        connectionErrors,
        statuses,
        crashes,
        rssMaxBytes: rssMax,
        failures: failures.length,
      };
      console.log(`fuzz: ${JSON.stringify(report)}`);
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(
        '.test-results/fuzz.json',
        `${JSON.stringify({ ...report, failureSamples: failures.slice(0, 50), errorCodes }, null, 2)}\n`,
      );
      expect(failures.slice(0, 20), `seed ${SEED}`).toEqual([]);
      expect(crashes).toBe(0);
      expect((await fetch(`${broker.url}/healthz`)).status).toBe(200);
      expect(rssMax).toBeLessThan(RSS_BYTES_MAX);
      expect(sent).toBeGreaterThan(REQUESTS * 0.9);
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('fuzzing topic patterns', () => {
  it(
    `${PATTERNS} generated patterns: 204 or 422 with a message, the broker keeps answering, subscriptions list real topics`,
    { timeout: SOAK ? 3_600_000 : 300_000 },
    async () => {
      const path = '/consumers/g-pattern/instances/p';
      const counts = { accepted: 0, refused: 0, throttled: 0, probeMsMax: 0 };
      const reasons: Record<string, number> = {};
      const failures: string[] = [];
      for (const pattern of fc.sample(patternText, { numRuns: PATTERNS, seed: SEED })) {
        const answer = await call(broker.url, 'POST', `${path}/subscription`, {
          body: { topic_pattern: pattern },
          contentType: V2,
        });
        if (answer.status === 429) counts.throttled++;
        else if (answer.status === 204) {
          counts.accepted++;
          const listed = await getPast429(`${path}/subscription`);
          const topics = await getPast429(`/v3/clusters/${cid}/topics`);
          const names = new Set(topics.body.data.map((topic: Json) => topic.topic_name));
          for (const name of listed.body.topics as string[])
            if (!names.has(name)) failures.push(`pattern ${JSON.stringify(pattern)} lists ${name}`);
        } else if (
          answer.status === 422 &&
          answer.body.error_code === 42206 &&
          typeof answer.body.message === 'string'
        ) {
          counts.refused++;
          const reason = String(answer.body.message).replace(/: .*/, '').slice(0, 60);
          reasons[reason] = (reasons[reason] ?? 0) + 1;
        } else
          failures.push(`${answer.status} for ${JSON.stringify(pattern).slice(0, 80)}: ${answer.text.slice(0, 200)}`);
        const sent = performance.now();
        const health = await fetch(`${broker.url}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
        counts.probeMsMax = Math.max(counts.probeMsMax, Math.round(performance.now() - sent));
        if (health?.status !== 200) failures.push(`/healthz did not answer in 2 s after ${JSON.stringify(pattern)}`);
      }
      const report = { seed: SEED, patterns: PATTERNS, ...counts, reasons, failures: failures.length };
      console.log(`pattern fuzz: ${JSON.stringify(report)}`);
      mkdirSync('.test-results', { recursive: true });
      writeFileSync(
        '.test-results/pattern-fuzz.json',
        `${JSON.stringify({ ...report, failureSamples: failures.slice(0, 50) }, null, 2)}\n`,
      );
      expect(failures.slice(0, 20), `seed ${SEED}`).toEqual([]);
      expect(counts.accepted).toBeGreaterThan(0);
      expect(counts.refused).toBeGreaterThan(0);
      expect(broker.child?.exitCode).toBeNull();
    },
  );
});
