// The `brook` CLI's failure paths that scripts rely on, against a real broker process: exit codes (1 for a failed
// record or a missing topic, 2 for bad flags, 3 for an unreachable broker, 130 on Ctrl-C) and one-line errors;
// and the console clients' edges: a group consumer stopped with Ctrl-C commits what it printed, partitions added
// while a consumer runs are read, headers carried from producer to consumer, --timeout-ms, BROOK_URL and
// --bootstrap-server fallbacks, a typed line sent at once.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { brokerForSuite, freePort } from './support/broker-process.js';
import { BROOK_CLI, brook, FAST_GROUPS } from './support/brook-cli.js';
import { call } from './support/http.js';

describe('brook CLI: failures', () => {
  const suite = brokerForSuite({ env: FAST_GROUPS });

  it('reports each record that fails, produces the others, and exits 1', async () => {
    const url = suite.url;
    await brook(['topics', '--create', '--topic', 'keyed', '--bootstrap-server', url]);
    const produce = await brook(
      [
        'console-producer',
        '--topic',
        'keyed',
        '--broker-list',
        url,
        '--property',
        'parse.key=true',
        '--property',
        'key.separator=:',
      ],
      { input: 'k1:v1\nno separator\nk3:v3\n' },
    );
    expect(produce.code).toBe(1);
    expect(produce.stderr).toBe(
      'brook: line 2 not produced: no key separator ":" found\nbrook: 1 of 3 records failed\n',
    );
    const consume = await brook([
      'console-consumer',
      '--topic',
      'keyed',
      '--from-beginning',
      '--max-messages',
      '2',
      '--property',
      'print.key=true',
      '--bootstrap-server',
      url,
    ]);
    expect(consume.stdout).toBe('k1\tv1\nk3\tv3\n');
  });

  it('commits what a group consumer printed when stopped with Ctrl-C, and exits 0', async () => {
    const url = suite.url;
    await brook(['topics', '--create', '--topic', 'interrupted', '--bootstrap-server', url]);
    await brook(['console-producer', '--topic', 'interrupted', '--bootstrap-server', url], {
      input: 'one\ntwo\nthree\n',
    });
    const child = spawn(
      process.execPath,
      [
        BROOK_CLI,
        'console-consumer',
        '--topic',
        'interrupted',
        '--group',
        'ctrl-c',
        '--from-beginning',
        '--bootstrap-server',
        url,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout === 'one\ntwo\nthree\n') resolve();
      }),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toBe('Processed a total of 3 messages\n');
    const described = await brook([
      'consumer-groups',
      '--describe',
      '--group',
      'ctrl-c',
      '--output',
      'json',
      '--bootstrap-server',
      url,
    ]);
    expect(
      JSON.parse(described.stdout).lags.map((row: { current_offset: number; lag: number }) => [
        row.current_offset,
        row.lag,
      ]),
    ).toEqual([[3, 0]]);
  });

  it('reads partitions added while a console consumer runs', async () => {
    const url = suite.url;
    await brook(['topics', '--create', '--topic', 'growing', '--bootstrap-server', url]);
    await brook(['console-producer', '--topic', 'growing', '--bootstrap-server', url], { input: 'first\n' });
    const child = spawn(
      process.execPath,
      [BROOK_CLI, 'console-consumer', '--topic', 'growing', '--from-beginning', '--max-messages', '2'].concat([
        '--property',
        'print.partition=true',
        '--bootstrap-server',
        url,
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout === 'Partition:0\tfirst\n') resolve();
      }),
    );
    expect(
      (await brook(['topics', '--alter', '--topic', 'growing', '--partitions', '2', '--bootstrap-server', url])).code,
    ).toBe(0);
    const cluster = suite.clusterId;
    const produced = await call(url, 'POST', `/v3/clusters/${cluster}/topics/growing/records`, {
      body: { partition_id: 1, value: { type: 'STRING', data: 'second' } },
    });
    expect(produced.status).toBe(200);
    expect(await exited).toBe(0);
    expect(stdout).toBe('Partition:0\tfirst\nPartition:1\tsecond\n');
  });

  it('carries headers from parse.headers in the producer to print.headers in the consumer', async () => {
    const url = suite.url;
    await brook(['topics', '--create', '--topic', 'headed', '--bootstrap-server', url]);
    const produce = await brook(
      [
        'console-producer',
        '--topic',
        'headed',
        '--property',
        'parse.headers=true',
        '--property',
        'parse.key=true',
      ].concat(['--bootstrap-server', url]),
      { input: 'trace:abc,flag\tk1\tv1\n\tk2\tv2\n' },
    );
    expect(produce.stderr).toBe('');
    const consume = await brook(
      ['console-consumer', '--topic', 'headed', '--from-beginning', '--max-messages', '2'].concat([
        '--property',
        'print.headers=true',
        '--property',
        'print.key=true',
        '--bootstrap-server',
        url,
      ]),
    );
    expect(consume.stdout).toBe('trace:abc,flag:null\tk1\tv1\nNO_HEADERS\tk2\tv2\n');
  });

  it('fails with exit 1 when producing to a topic that does not exist', async () => {
    const result = await brook(['console-producer', '--topic', 'missing', '--bootstrap-server', suite.url], {
      input: 'x\n',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^brook: .*missing.*not found.*\(error 40401\)\n$/);
  });

  it('fails with exit 1 when consuming a topic that does not exist, with or without a group', async () => {
    for (const group of [[], ['--group', 'lost']]) {
      const result = await brook(['console-consumer', '--topic', 'missing', ...group, '--bootstrap-server', suite.url]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('brook: Topic missing not found. (error 40401)\n');
    }
  });

  it('ends a console consumer after --timeout-ms without records', async () => {
    await brook(['topics', '--create', '--topic', 'quiet', '--bootstrap-server', suite.url]);
    const result = await brook([
      'console-consumer',
      '--topic',
      'quiet',
      '--timeout-ms',
      '500',
      '--bootstrap-server',
      suite.url,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('Processed a total of 0 messages\n');
  });

  it('takes the broker from BROOK_URL, and tries each --bootstrap-server in turn', async () => {
    const fromEnv = await brook(['topics', '--list', '--output', 'json'], {
      env: { BROOK_URL: `127.0.0.1:${suite.broker.port}` },
    });
    expect(fromEnv.code).toBe(0);
    expect(Array.isArray(JSON.parse(fromEnv.stdout))).toBe(true);
    const down = await freePort();
    const fallback = await brook(['topics', '--list', '--bootstrap-server', `127.0.0.1:${down},${suite.url}`]);
    expect(fallback.stderr).toBe('');
    expect(fallback.code).toBe(0);
  });

  it('sends a typed line at once, without waiting for more, and exits 130 on Ctrl-C', async () => {
    const url = suite.url;
    await brook(['topics', '--create', '--topic', 'typed', '--bootstrap-server', url]);
    const child = spawn(
      process.execPath,
      [BROOK_CLI, 'console-producer', '--topic', 'typed', '--bootstrap-server', url],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.write('typed line\n');
    const cluster = suite.clusterId;
    const deadline = Date.now() + 10_000;
    let latest = 0;
    while (latest === 0 && Date.now() < deadline) {
      const response = await call<{ latest_offset: number }>(
        url,
        'GET',
        `/v3/clusters/${cluster}/topics/typed/partitions/0/offset`,
      );
      latest = response.body.latest_offset;
      if (latest === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(latest).toBe(1);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
  });

  it('names an unreachable broker in one line and exits 3', async () => {
    const port = await freePort();
    const result = await brook(['topics', '--list', '--bootstrap-server', `localhost:${port}`]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(`brook: cannot reach the broker at http://localhost:${port} (connection refused)\n`);
    expect(result.stdout).toBe('');
  });

  it('exits 2 on bad flags, with the reason', async () => {
    const unknown = await brook(['topics', '--lst']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown option '--lst'");
    const twoActions = await brook(['topics', '--list', '--delete', '--topic', 't', '--bootstrap-server', suite.url]);
    expect(twoActions.code).toBe(2);
    expect(twoActions.stderr).toContain('exactly one action');
    const zookeeper = await brook(['topics', '--list', '--zookeeper', 'localhost:2181']);
    expect(zookeeper.code).toBe(2);
    expect(zookeeper.stderr).toBe(
      'brook: --zookeeper is not supported: Brook has no ZooKeeper; use --bootstrap-server <url>\n',
    );
  });
});
