// W2: 1 KiB records, 100 per request, produced over v3 REST (`POST .../records:batch`, acks=1) into a one-partition
// topic at a fixed rate (BROOK_BENCH_W2_RATE requests/s, default 20: 2,000 records/s, 2 MB/s) for
// BROOK_BENCH_W2_SECONDS (default 5) after a second of warm-up, while two readers take every record:
//   a REST long-polling consumer: Brook's stateless read (`GET .../partitions/0/records?offset=n&wait_ms=..`,
//     format=string), each answer's `next_offset` the next request's offset: what a REST user reading one
//     partition without a group calls (a v2 consumer instance polls the same log through the group layer);
//   a WebSocket subscriber: `GET /v3/ws`, `subscribe` to the partition from latest, a credit back per record.
// Each record's value starts with its send time (performance.now() of this process, the one clock of the producer
// and both readers) and the readers scan the raw answer bytes for values, so the client costs both sides alike.
// Reported per reader: records delivered, p50/p99 of produce (send) to delivery (receipt) per record, server RSS.
// Baseline, in the same run with the same clients: a bare Node `http` + `ws` server that keeps each request's
// records in memory, answers the long polls from that array (waiting until records arrive) and broadcasts each
// request's records to its WebSocket subscribers: no storage, no validation, the ceiling for this shape in Node.
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { call, callJson, CONNECTIONS, freePort, rssBytes, startBroker, stop, type Server } from './bench-processes.js';
import { formatMeasurement, type Measurement } from './measure.js';
import { sendTimes, timedValue } from './send-times.js';

const RECORD_BYTES = 1024;
const RECORDS_PER_REQUEST = 100;
const WARMUP_SECONDS = 1;
const DRAIN_MS = 1_000;
const WAIT_MS = 5_000;
const CREDITS = 10_000;
const TOPIC = 'w2';

const BASELINE = `
const http = require('node:http');
const { WebSocketServer } = require(process.env.BENCH_WS_PATH);
const values = [];
let waiters = [];
const subscribers = new Set();
const answer = (res, offset) => {
  const records = values.slice(offset, offset + 500).map((value, i) => ({ offset: offset + i, value }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ records, next_offset: offset + records.length }));
};
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (req.method === 'GET') {
    const offset = Number(url.searchParams.get('offset') ?? 0);
    if (offset < values.length || !url.searchParams.has('offset')) return answer(res, offset);
    const waiter = { res, offset, timer: setTimeout(() => { waiters = waiters.filter((w) => w !== waiter); answer(res, offset); }, 5000) };
    waiters.push(waiter);
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const entries = JSON.parse(Buffer.concat(chunks).toString()).entries;
    const first = values.length;
    for (const entry of entries) values.push(entry.value.data);
    res.writeHead(207, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ successes: entries.map((entry, i) => ({ id: entry.id, offset: first + i })), failures: [] }));
    const frame = JSON.stringify({ op: 'records', id: 's', records: entries.map((entry, i) => ({ offset: first + i, value: entry.value.data })) });
    for (const subscriber of subscribers) subscriber.send(frame);
    const woken = waiters;
    waiters = [];
    for (const waiter of woken) { clearTimeout(waiter.timer); answer(waiter.res, waiter.offset); }
  });
});
new WebSocketServer({ server, perMessageDeflate: false }).on('connection', (socket) => {
  subscribers.add(socket);
  socket.on('message', (data) => { if (String(data).includes('"op":"subscribe"')) socket.send('{"op":"subscribed","id":"s"}'); });
  socket.on('close', () => subscribers.delete(socket));
});
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
`;

interface Side {
  name: string;
  server: Server;
  recordsPath: string;
  readPath: (offset: number) => string;
  wsUrl: string;
}

function requestBody(sentMs: number): string {
  const data = timedValue(sentMs, RECORD_BYTES);
  const entries = Array.from({ length: RECORDS_PER_REQUEST }, (_, i) => ({
    id: String(i),
    partition_id: 0,
    value: { type: 'STRING', data },
  }));
  return JSON.stringify({ entries });
}

async function startBaselineSide(): Promise<Side> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BASELINE], {
    env: { ...process.env, BENCH_PORT: String(port), BENCH_WS_PATH: createRequire(import.meta.url).resolve('ws') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const server: Server = {
    name: 'baseline',
    child,
    port,
    agent: new Agent({ keepAlive: true, maxSockets: CONNECTIONS }),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await call(server, 'GET', '/records')).status === 200) break;
    } catch (error) {
      if (attempt > 100) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name: 'baseline: bare http long poll + ws broadcast',
    server,
    recordsPath: '/records',
    readPath: (offset) => `/records?offset=${offset}`,
    wsUrl: `ws://127.0.0.1:${port}/`,
  };
}

async function startBrookSide(dataDir: string): Promise<Side> {
  const server = await startBroker(dataDir);
  const clusters = (await callJson(server, 'GET', '/v3/clusters')).data as Array<{ cluster_id: string }>;
  const topics = `/v3/clusters/${clusters[0].cluster_id}/topics`;
  await callJson(server, 'POST', topics, { topic_name: TOPIC, partitions_count: 1 });
  return {
    name: 'brook: v3 records:batch, stateless long-poll read, /v3/ws',
    server,
    recordsPath: `${topics}/${TOPIC}/records:batch?acks=1`,
    readPath: (offset) =>
      `${topics}/${TOPIC}/partitions/0/records?offset=${offset}&wait_ms=${WAIT_MS}&format=string&max_bytes=1048576`,
    wsUrl: `ws://127.0.0.1:${server.port}/v3/ws`,
  };
}

function subscribe(side: Side, onFrame: (data: Buffer, socket: WebSocket) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(side.wsUrl, { perMessageDeflate: false });
    socket.on('error', reject);
    socket.once('open', () => {
      socket.once('message', (data: Buffer) => {
        if (!data.includes('"op":"subscribed"')) return reject(new Error(`subscribe answered ${data.toString()}`));
        socket.on('message', (frame: Buffer) => onFrame(frame, socket));
        resolve(socket);
      });
      socket.send(
        JSON.stringify({
          op: 'subscribe',
          id: 's',
          assign: [{ topic: TOPIC, partition: 0 }],
          from: 'latest',
          format: 'string',
          credits: CREDITS,
        }),
      );
    });
  });
}

async function runSide(side: Side, rate: number, seconds: number): Promise<Measurement[]> {
  let measuring = false;
  const polled: number[] = [];
  const pushed: number[] = [];
  const socket = await subscribe(side, (data, ws) => {
    const now = performance.now();
    const count = sendTimes(data, (sentMs) => measuring && pushed.push(now - sentMs));
    if (count > 0) ws.send(`{"op":"credit","id":"s","n":${count}}`);
    else if (data.includes('"op":"error"')) throw new Error(`subscriber got ${data.toString()}`);
  });
  let polling = true;
  // the long poll on a connection of its own, so produce requests never queue behind it
  const reader: Server = { ...side.server, agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
  const poller = (async () => {
    let offset = 0;
    while (polling) {
      const res = await call(reader, 'GET', side.readPath(offset));
      const now = performance.now();
      if (res.status !== 200) throw new Error(`${side.name} read answered ${res.status}: ${res.body.toString()}`);
      sendTimes(res.body, (sentMs) => measuring && polled.push(now - sentMs));
      offset = Number(/"next_offset":(\d+)/.exec(res.body.toString('latin1'))![1]);
    }
  })();
  const produceFor = async (runSeconds: number) => {
    const started = performance.now();
    let sent = 0;
    const inFlight: Array<Promise<void>> = [];
    while (performance.now() - started < runSeconds * 1000) {
      for (let due = Math.floor(((performance.now() - started) / 1000) * rate) - sent; due > 0; due--, sent++) {
        const body = requestBody(performance.now());
        inFlight.push(
          call(side.server, 'POST', side.recordsPath, body, { 'content-type': 'application/json' }).then((res) => {
            if (res.status !== 207 || !res.body.includes('"failures":[]'))
              throw new Error(`${side.name} produce answered ${res.status}: ${res.body.toString('utf8', 0, 300)}`);
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await Promise.all(inFlight);
    return { sent, seconds: (performance.now() - started) / 1000 };
  };
  await produceFor(WARMUP_SECONDS);
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  measuring = true;
  const run = await produceFor(seconds);
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  measuring = false;
  const rss = rssBytes(side.server.child.pid);
  polling = false;
  socket.close();
  await call(side.server, 'POST', side.recordsPath, requestBody(performance.now()), {
    'content-type': 'application/json',
  }); // wakes the last long poll
  await poller;
  reader.agent.destroy();
  const expected = run.sent * RECORDS_PER_REQUEST;
  const row = (reader: string, latenciesMs: number[]): Measurement => {
    if (latenciesMs.length < expected) console.log(`  ${side.name}, ${reader}: ${latenciesMs.length} of ${expected}`);
    return {
      name: `${side.name.split(':')[0]}, ${reader}`,
      records: latenciesMs.length,
      bytes: latenciesMs.length * RECORD_BYTES,
      seconds: run.seconds,
      latenciesMs,
      rssBytes: rss,
    };
  };
  return [row('REST long poll', polled), row('WebSocket', pushed)];
}

export async function runW2(seconds: number, rate: number): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-w2-'));
  const servers: Server[] = [];
  try {
    const baseline = await startBaselineSide();
    servers.push(baseline.server);
    const brook = await startBrookSide(join(dir, 'broker'));
    servers.push(brook.server);
    console.log(
      `${RECORD_BYTES}-byte records, ${RECORDS_PER_REQUEST} per v3 request at ${rate} requests/s ` +
        `(${(rate * RECORDS_PER_REQUEST).toLocaleString('en-US')} records/s), ${seconds} s after ${WARMUP_SECONDS} s ` +
        'warm-up; one REST long-polling reader and one WebSocket subscriber; latency from produce (send) to delivery',
    );
    const base = await runSide(baseline, rate, seconds);
    const mine = await runSide(brook, rate, seconds);
    for (let i = 0; i < base.length; i++) {
      console.log(formatMeasurement(base[i]));
      console.log(formatMeasurement(mine[i], base[i]));
    }
    return [...base, ...mine];
  } finally {
    for (const server of servers) await stop(server);
    await rm(dir, { recursive: true, force: true });
  }
}
