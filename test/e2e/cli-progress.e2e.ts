// The console producer's progress line: shown on stderr only when stderr is a terminal (and stdin is not), and
// cleared at the end. Runs the CLI in-process so that stderr can claim to be a TTY; a real broker answers.
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/cli.js';
import { BrokerProcess } from './support/broker-process.js';

const RECORDS = 20_000;

async function produce(
  broker: BrokerProcess,
  topic: string,
  stderrIsTty: boolean,
): Promise<{ code: number; stderr: string }> {
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTty });
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const stdin = Readable.from([Array.from({ length: RECORDS }, (_, i) => `record ${i}`).join('\n') + '\n']);
  const code = await run(['console-producer', '--topic', topic, '--bootstrap-server', broker.url], {
    stdin,
    stdout: new PassThrough(),
    stderr,
    signal: new AbortController().signal,
  });
  return { code, stderr: text };
}

async function endOffset(broker: BrokerProcess, topic: string): Promise<number> {
  const cluster = await broker.clusterId();
  const response = await fetch(`${broker.url}/v3/clusters/${cluster}/topics/${topic}/partitions/0/offset`);
  return ((await response.json()) as { latest_offset: number }).latest_offset;
}

describe('console-producer progress', () => {
  let broker: BrokerProcess;

  beforeAll(async () => {
    broker = await BrokerProcess.start();
    for (const topic of ['tty', 'pipe']) {
      expect(
        await run(['topics', '--create', '--topic', topic, '--bootstrap-server', broker.url], {
          stdin: new PassThrough(),
          stdout: new PassThrough(),
          stderr: new PassThrough(),
          signal: new AbortController().signal,
        }),
      ).toBe(0);
    }
  });

  afterAll(async () => {
    await broker?.stop();
  });

  it('shows a progress line on a terminal and clears it at the end', async () => {
    const result = await produce(broker, 'tty', true);
    expect(result.code).toBe(0);
    expect(result.stderr.startsWith('\r\x1b[Kproduced ')).toBe(true);
    expect(result.stderr).toContain(' records to tty');
    expect(result.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(await endOffset(broker, 'tty')).toBe(RECORDS);
  });

  it('writes nothing to stderr when it is not a terminal', async () => {
    const result = await produce(broker, 'pipe', false);
    expect(result).toEqual({ code: 0, stderr: '' });
    expect(await endOffset(broker, 'pipe')).toBe(RECORDS);
  });
});
