// The console producer's progress line: shown on stderr only when stderr is a terminal (and stdin is not), and
// cleared at the end. Runs the CLI in-process so that stderr can claim to be a TTY; a real broker answers.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/cli.js';
import { brokerForSuite } from './support/broker-process.js';
import { call } from './support/http.js';

const RECORDS = 20_000;

const quietIo = () => ({
  stdin: new PassThrough(),
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  signal: new AbortController().signal,
});

async function produce(url: string, topic: string, stderrIsTty: boolean): Promise<{ code: number; stderr: string }> {
  expect(await run(['topics', '--create', '--topic', topic, '--bootstrap-server', url], quietIo())).toBe(0);
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTty });
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const stdin = Readable.from([Array.from({ length: RECORDS }, (_, i) => `record ${i}`).join('\n') + '\n']);
  const code = await run(['console-producer', '--topic', topic, '--bootstrap-server', url], {
    ...quietIo(),
    stdin,
    stderr,
  });
  return { code, stderr: text };
}

async function endOffset(url: string, clusterId: string, topic: string): Promise<number> {
  const response = await call<{ latest_offset: number }>(
    url,
    'GET',
    `/v3/clusters/${clusterId}/topics/${topic}/partitions/0/offset`,
  );
  return response.body.latest_offset;
}

describe('console-producer progress', () => {
  const suite = brokerForSuite();

  it('shows a progress line on a terminal and clears it at the end', async () => {
    const result = await produce(suite.url, 'tty', true);
    expect(result.code).toBe(0);
    expect(result.stderr.startsWith('\r\x1b[Kproduced ')).toBe(true);
    expect(result.stderr).toContain(' records to tty');
    expect(result.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(await endOffset(suite.url, suite.clusterId, 'tty')).toBe(RECORDS);
  });

  it('writes nothing to stderr when it is not a terminal', async () => {
    const result = await produce(suite.url, 'pipe', false);
    expect(result).toEqual({ code: 0, stderr: '' });
    expect(await endOffset(suite.url, suite.clusterId, 'pipe')).toBe(RECORDS);
  });
});
