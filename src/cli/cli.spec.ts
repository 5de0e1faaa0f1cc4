// The program's parsing and exit codes, run in-process with captured streams (no broker needed: every case
// here fails before a request, or targets a port nothing listens on).
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from './cli.js';
import { EXIT } from './errors.js';

async function brook(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await run(argv, { stdin: new PassThrough(), stdout, stderr, signal: new AbortController().signal });
  return { code, stdout: out, stderr: err };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('brook', () => {
  it('documents the exit codes in --help', async () => {
    const result = await brook('--help');
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain('Exit codes:');
    expect(result.stdout).toMatch(/3 +the broker could not be reached/);
  });

  it.each([
    'topics',
    'configs',
    'console-producer',
    'console-consumer',
    'consumer-groups',
    'start',
    'reassign-partitions',
    'leader-election',
  ])('%s --help shows examples', async (command) => {
    const result = await brook(command, '--help');
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain(`brook ${command}`);
  });

  it.each([
    [['topics', '--lst'], /unknown option '--lst'/],
    [['topics', '--list', '--delete'], /exactly one action/],
    [['topics'], /exactly one action/],
    [['topics', '--create'], /--create needs --topic/],
    [['topics', '--create', '--topic', 't', '--partitions', 'zero'], /'zero' is not an integer/],
    [['topics', '--list', '--output', 'yaml'], /Allowed choices are kafka, table, json/],
    [['topics', '--list', '--zookeeper', 'localhost:2181'], /Brook has no ZooKeeper/],
    [['topics', '--list', '--bootstrap-server', 'ftp://x'], /only http and https/],
    [['topics', '--alter', '--topic', 't'], /--alter needs --partitions or --config/],
    [['topics', '--create', '--topic', 't', '--config', 'retention.ms'], /not of the form name=value/],
    [['configs', '--entity-type', 'clients', '--entity-name', 'c1', '--describe'], /not supported/],
    [['configs', '--topic', 't', '--alter'], /--alter needs --add-config or --delete-config/],
    [['consumer-groups', '--describe'], /--describe needs --group/],
    [['consumer-groups', '--reset-offsets', '--group', 'g', '--topic', 't'], /exactly one of --to-earliest/],
    [['configs', '--entity-type', 'topics', '--alter'], /--alter needs --entity-name/],
    [['console-consumer'], /required option '--topic <name>'/],
    [['console-consumer', '--topic', 't', '--offset', '5'], /--offset needs --partition/],
    [['console-consumer', '--topic', 't', '--property', 'print.keys=true'], /unknown --property 'print.keys'/],
    [['console-producer', '--topic', 't', '--property', 'parse.key=maybe'], /must be true or false/],
    [['console-producer', '--topic', 't', '--batch-size', '20000'], /--batch-size is at most 10000/],
    [['reassign-partitions'], /exactly one action/],
    [['reassign-partitions', '--execute'], /--execute needs --reassignment-json-file/],
    [['reassign-partitions', '--generate', '--broker-list', '1,2'], /--generate needs --topics-to-move-json-file/],
    [['reassign-partitions', '--verify', '--reassignment-json-file', '/no/such/file'], /cannot read \/no\/such\/file/],
    [['leader-election', '--all-topic-partitions'], /required option '--election-type <type>'/],
    [['leader-election', '--election-type', 'sometimes', '--all-topic-partitions'], /PREFERRED or UNCLEAN/],
    [['leader-election', '--election-type', 'preferred'], /name the partitions one way/],
    [['leader-election', '--election-type', 'preferred', '--topic', 't'], /--topic and --partition go together/],
    [['no-such-command'], /unknown command 'no-such-command'/],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await brook(...argv);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(EXIT.usage);
  });

  it.each([
    ['reassign-partitions', '--list'],
    ['leader-election', '--election-type', 'PREFERRED', '--all-topic-partitions'],
  ])('%s reports an unreachable broker in one line (exit 3)', async (...argv) => {
    const port = await closedPort();
    const result = await brook(...argv, '--bootstrap-server', `127.0.0.1:${port}`);
    expect(result.code).toBe(EXIT.unreachable);
    expect(result.stderr).toBe(`brook: cannot reach the broker at http://127.0.0.1:${port} (connection refused)\n`);
  });

  it('reports an unreachable broker in one line naming the URL (exit 3)', async () => {
    const port = await closedPort();
    const result = await brook('topics', '--list', '--bootstrap-server', `127.0.0.1:${port}`);
    expect(result.code).toBe(EXIT.unreachable);
    expect(result.stderr).toBe(`brook: cannot reach the broker at http://127.0.0.1:${port} (connection refused)\n`);
    expect(result.stdout).toBe('');
  });

  it('says so when the server is not a Brook broker (exit 3)', async () => {
    const server = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>hello</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const result = await brook('topics', '--list', '--bootstrap-server', `127.0.0.1:${port}`);
      expect(result.stderr).toBe(
        `brook: the server at http://127.0.0.1:${port} is not a Brook broker (it answered HTTP 200 with 'text/html', not JSON)\n`,
      );
      expect(result.code).toBe(EXIT.unreachable);
    } finally {
      server.close();
    }
  });

  it('tries the next bootstrap server when one is unreachable', async () => {
    const [first, second] = [await closedPort(), await closedPort()];
    const result = await brook('topics', '--list', '--bootstrap-server', `127.0.0.1:${first},127.0.0.1:${second}`);
    expect(result.code).toBe(EXIT.unreachable);
    expect(result.stderr).toBe(`brook: cannot reach the broker at http://127.0.0.1:${second} (connection refused)\n`);
  });
});
