// W5: WebSocket fan-out. One producer sends 512-byte records at a fixed rate (BROOK_BENCH_W5_RATE, default
// 10,000 records/s) in a frame every TICK_MS; 1, 10 and 100 subscribers receive them. Two servers, as child
// processes, with the same clients, alternating per subscriber count:
//   baseline: a bare `ws` server that broadcasts each producer frame, unchanged, to every subscriber (no storage,
//     no flow control: the ceiling for fan-out over `ws` in Node);
//   brook: GET /v3/ws, `produce` (acks=1) into a one-partition topic and `subscribe` (from latest) per subscriber,
//     each subscriber granting back a credit per record received.
// Each record's value starts with its send time (performance.now() of this process), so every subscriber measures
// produce -> delivery latency per record; subscribers scan the raw frame bytes for values instead of parsing the
// JSON, so the client side costs both servers the same and little. Reported per run: records delivered per second
// summed over subscribers (those received within the run), MB/s of record values, p50/p99 latency, server RSS, and
// the ratio brook / baseline.
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createTopic } from './bench-client.js';
import { freePort, rssBytes, startBroker, stop, type Server } from './bench-processes.js';
import { formatMeasurement, type Measurement } from './measure.js';
import { sendTimes, timedValue } from './send-times.js';

const RECORD_BYTES = 512;
const TICK_MS = 10;
const SUBSCRIBER_COUNTS = [1, 10, 100];
const WARMUP_SECONDS = 1;
const DRAIN_MS = 1_000;
const CREDITS = 10_000;
const RECORDS_PER_FRAME_MAX = 500;
const TOPIC = 'bench';

const BROADCAST_BASELINE = `
const { WebSocketServer } = require(process.env.BENCH_WS_PATH);
const subscribers = new Set();
const server = new WebSocketServer({ host: '127.0.0.1', port: Number(process.env.BENCH_PORT), perMessageDeflate: false });
server.on('connection', (socket, request) => {
  socket.on('error', () => socket.terminate());
  if (request.url === '/produce') {
    socket.on('message', (data) => { for (const subscriber of subscribers) subscriber.send(data, { binary: false }); });
  } else {
    subscribers.add(socket);
    socket.on('close', () => subscribers.delete(socket));
  }
});
`;

interface Side {
  name: string;
  server: Server;
  url: string;
  /** Opens a subscriber whose every received frame goes to `onFrame`; resolves once it is subscribed. */
  subscribe(onFrame: (data: Buffer, socket: WebSocket) => void): Promise<WebSocket>;
  /** Opens the producer; `send(values)` sends one frame of records (it throws once the socket has closed). */
  producer(): Promise<{ send(values: string[]): void; close(): void }>;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.on('error', reject);
  });
}

async function startBaseline(): Promise<Side> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BROADCAST_BASELINE], {
    env: {
      ...process.env,
      BENCH_PORT: String(port),
      BENCH_WS_PATH: createRequire(import.meta.url).resolve('ws'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `ws://127.0.0.1:${port}`;
  const server: Server = { name: 'baseline', child, port, agent: new Agent() };
  for (let attempt = 0; ; attempt++) {
    try {
      (await open(`${url}/probe`)).close();
      break;
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    name: 'baseline: bare ws broadcast',
    server,
    url,
    async subscribe(onFrame) {
      const socket = await open(`${url}/subscribe`);
      socket.on('message', (data: Buffer) => onFrame(data, socket));
      return socket;
    },
    async producer() {
      const socket = await open(`${url}/produce`);
      let id = 0;
      return {
        send: (values) =>
          sendOpen(
            socket,
            JSON.stringify({ op: 'produce', id: id++, topic: TOPIC, records: values.map((value) => ({ value })) }),
          ),
        close: () => socket.close(),
      };
    },
  };
}

async function startBrook(dataDir: string): Promise<Side> {
  const server = await startBroker(dataDir);
  await createTopic(server);
  const url = `ws://127.0.0.1:${server.port}/v3/ws`;
  return {
    name: 'brook: /v3/ws produce acks=1, subscribe',
    server,
    url,
    async subscribe(onFrame) {
      const socket = await open(url);
      const subscribed = new Promise<void>((resolve, reject) => {
        socket.once('message', (data: Buffer) => {
          const frame = JSON.parse(data.toString()) as { op: string };
          if (frame.op === 'subscribed') resolve();
          else reject(new Error(`subscribe answered ${data.toString()}`));
        });
      });
      socket.send(
        JSON.stringify({
          op: 'subscribe',
          id: 's',
          assign: [{ topic: TOPIC, partition: 0 }],
          from: 'latest',
          credits: CREDITS,
        }),
      );
      await subscribed;
      socket.on('message', (data: Buffer) => onFrame(data, socket));
      return socket;
    },
    async producer() {
      const socket = await open(url);
      socket.on('message', (data: Buffer) => {
        if (data.includes('"op":"error"')) throw new Error(`produce failed: ${data.toString()}`);
      });
      let id = 0;
      return {
        send: (values) =>
          socket.send(
            JSON.stringify({
              op: 'produce',
              id: id++,
              topic: TOPIC,
              acks: 1,
              records: values.map((value) => ({ value })),
            }),
          ),
        close: () => socket.close(),
      };
    },
  };
}

function sendOpen(socket: WebSocket, text: string): void {
  if (socket.readyState !== WebSocket.OPEN)
    throw new Error(`the producer's socket closed (state ${socket.readyState})`);
  socket.send(text);
}

function value(sentMs: number): string {
  return timedValue(sentMs, RECORD_BYTES);
}

async function runOnce(side: Side, subscribers: number, rate: number, seconds: number): Promise<Measurement> {
  let measuring = false;
  let delivered = 0;
  const latenciesMs: number[] = [];
  const sockets: WebSocket[] = [];
  const brook = side.name.startsWith('brook');
  for (let i = 0; i < subscribers; i++) {
    sockets.push(
      await side.subscribe((data, socket) => {
        const now = performance.now();
        const count = sendTimes(data, (sentMs) => {
          if (!measuring) return;
          latenciesMs.push(now - sentMs);
          delivered++;
        });
        if (brook && count > 0) socket.send(`{"op":"credit","id":"s","n":${count}}`);
        if (count === 0 && data.includes('"op":"error"')) throw new Error(`subscriber got ${data.toString()}`);
      }),
    );
  }
  const producer = await side.producer();
  const produceFor = async (runSeconds: number) => {
    const started = performance.now();
    let sent = 0;
    while (performance.now() - started < runSeconds * 1000) {
      // A tick that came late sends what is due in several frames, each within the broker's frame size bound.
      for (let due = Math.floor(((performance.now() - started) / 1000) * rate) - sent; due > 0;) {
        const now = performance.now();
        const count = Math.min(due, RECORDS_PER_FRAME_MAX);
        producer.send(Array.from({ length: count }, () => value(now)));
        sent += count;
        due -= count;
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
    return { sent, seconds: (performance.now() - started) / 1000 };
  };
  await produceFor(WARMUP_SECONDS);
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  measuring = true;
  const run = await produceFor(seconds);
  measuring = false;
  const rss = rssBytes(side.server.child.pid);
  producer.close();
  for (const socket of sockets) socket.close();
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  const expected = run.sent * subscribers;
  if (delivered < expected)
    console.log(`  ${side.name}, ${subscribers} subscribers: ${delivered} of ${expected} deliveries within the run`);
  return {
    name: `${side.name.split(':')[0]}, ${subscribers} subscriber${subscribers === 1 ? '' : 's'}`,
    records: delivered,
    bytes: delivered * RECORD_BYTES,
    seconds: run.seconds,
    latenciesMs,
    rssBytes: rss,
  };
}

export async function runW5(
  seconds: number,
  rate: number,
  subscriberCounts: number[] = SUBSCRIBER_COUNTS,
): Promise<Measurement[]> {
  const dir = await mkdtemp(join(tmpdir(), 'brook-bench-w5-'));
  const sides: Side[] = [];
  const results: Measurement[] = [];
  try {
    const baseline = await startBaseline();
    sides.push(baseline);
    const brook = await startBrook(join(dir, 'broker'));
    sides.push(brook);
    console.log(
      `${RECORD_BYTES}-byte records at ${rate.toLocaleString('en-US')} records/s (a frame every ${TICK_MS} ms), ` +
        `${seconds} s per run after ${WARMUP_SECONDS} s warm-up; rec/s and MB/s are deliveries summed over subscribers; ` +
        'latency from produce (send) to delivery (receipt) per record',
    );
    for (const subscribers of subscriberCounts) {
      const base = await runOnce(baseline, subscribers, rate, seconds);
      const mine = await runOnce(brook, subscribers, rate, seconds);
      console.log(formatMeasurement(base));
      console.log(formatMeasurement(mine, base));
      results.push(base, mine);
    }
    return results;
  } finally {
    for (const side of sides) await stop(side.server);
    await rm(dir, { recursive: true, force: true });
  }
}
