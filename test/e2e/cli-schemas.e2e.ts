// `brook schemas` and the console tools' schema flags with the built CLI against a real broker: registering a
// schema file (the same file twice gets the same id, an incompatible one is refused with the registry's 409),
// listing, describing, compatibility levels, soft and permanent deletes; `console-producer --value-schema-file
// --format avro` writes Confluent's wire format (decoded by @kafkajs/confluent-schema-registry, a client nobody here
// wrote) and `console-consumer --format avro` prints the values as JSON, alone or as a group member, reporting a
// record not in the wire format instead of printing it; JSON Schema and Protobuf with key schemas. `brook acls
// --subject` is in cli-acls-subject.e2e.ts.
import { SchemaRegistry as ConfluentClient } from '@kafkajs/confluent-schema-registry';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { brook } from './support/brook-cli.js';
import { call } from './support/http.js';

const ORDER = { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'long' }] };
const ORDER_V2 = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
  ],
};
const ORDER_BREAKING = { type: 'record', name: 'Order', fields: [{ name: 'sku', type: 'string' }] };
const DOC = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
const PROTO = 'syntax = "proto3";\nmessage Reading {\n  string sensor = 1;\n  double celsius = 2;\n}\n';
const PROTO_KEY = 'syntax = "proto3";\nmessage SensorKey {\n  string sensor = 1;\n}\n';

let dir: string;
let broker: BrokerProcess;
let cid: string;
const file = (name: string, content: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const run = (args: string[], input?: string) =>
  brook([...args, '--bootstrap-server', broker.url], { input, env: { BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '0' } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brook-cli-schemas-'));
  broker = await BrokerProcess.start({ env: { BROOK_GROUP_INITIAL_REBALANCE_DELAY_MS: '0' } });
  cid = await broker.clusterId();
  for (const topic of ['orders', 'docs', 'readings']) {
    const created = await run(['topics', '--create', '--topic', topic, '--partitions', '1']);
    expect(created.code, created.stderr).toBe(0);
  }
});
afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function storedValues(topic: string): Promise<Buffer[]> {
  const answer = await call(broker.url, 'GET', `/v3/clusters/${cid}/topics/${topic}/partitions/0/records?offset=0`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.records.map((record: { value: string }) => Buffer.from(record.value, 'base64'));
}

describe('brook schemas', () => {
  it('registers, lists, describes and evolves a subject, refusing an incompatible schema', async () => {
    const registered = await run([
      'schemas',
      '--register',
      '--subject',
      'orders-value',
      '--schema-file',
      file('order.avsc', ORDER),
    ]);
    expect(registered.stderr).toBe('');
    expect(registered.code).toBe(0);
    const match = /^Registered schema under subject orders-value: id (\d+), version 1\.\n$/.exec(registered.stdout);
    expect(match, registered.stdout).not.toBeNull();
    const id = Number(match?.[1]);
    const again = await run([
      'schemas',
      '--register',
      '--subject',
      'orders-value',
      '--schema-file',
      file('order.avsc', ORDER),
    ]);
    expect(again.stdout).toBe(`Registered schema under subject orders-value: id ${id}, version 1.\n`);

    const breaking = await run([
      'schemas',
      '--register',
      '--subject',
      'orders-value',
      '--schema-file',
      file('breaking.avsc', ORDER_BREAKING),
    ]);
    expect(breaking.code).toBe(1);
    expect(breaking.stderr).toMatch(/^brook: Schema being registered is incompatible .*\(error 409\)\n$/);
    const invalid = await run([
      'schemas',
      '--register',
      '--subject',
      'x-value',
      '--schema-file',
      file('bad.avsc', '{"type": "nope"}'),
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('(error 42201)');
    const missing = await run([
      'schemas',
      '--register',
      '--subject',
      'x-value',
      '--schema-file',
      join(dir, 'absent.avsc'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--schema-file');

    const v2 = await run([
      'schemas',
      '--register',
      '--subject',
      'orders-value',
      '--schema-file',
      file('order2.avsc', ORDER_V2),
      '--output',
      'json',
    ]);
    expect(v2.code, v2.stderr).toBe(0);
    expect(JSON.parse(v2.stdout)).toEqual({
      subject: 'orders-value',
      id: expect.any(Number),
      version: 2,
      schemaType: 'AVRO',
    });
    expect(JSON.parse(v2.stdout).id).toBeGreaterThan(id);

    const listed = await run(['schemas', '--list']);
    expect(listed.stdout.split('\n')).toContain('orders-value');

    const described = await run(['schemas', '--describe', '--subject', 'orders-value', '--version', '1']);
    expect(described.code, described.stderr).toBe(0);
    const [header, ...schemaLines] = described.stdout.trimEnd().split('\n');
    expect(header).toBe(
      `Subject: orders-value\tVersion: 1\tId: ${id}\tType: AVRO\tVersions: 1,2\tCompatibility: BACKWARD`,
    );
    expect(JSON.parse(schemaLines.join('\n'))).toEqual(ORDER);
    const latest = JSON.parse(
      (await run(['schemas', '--describe', '--subject', 'orders-value', '--output', 'json'])).stdout,
    );
    expect(latest).toMatchObject({ subject: 'orders-value', version: 2, versions: [1, 2], schemaType: 'AVRO' });
    const unknown = await run(['schemas', '--describe', '--subject', 'nobody-value']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('(error 40401)');
  });

  it('shows and sets compatibility levels, globally and per subject', async () => {
    expect((await run(['schemas', '--compatibility'])).stdout).toBe(
      'Compatibility level of the registry (global): BACKWARD\n',
    );
    const set = await run(['schemas', '--compatibility', '--subject', 'orders-value', '--level', 'none']);
    expect(set.stdout).toBe('Set the compatibility level of subject orders-value to NONE.\n');
    expect((await run(['schemas', '--compatibility', '--subject', 'orders-value'])).stdout).toBe(
      'Compatibility level of subject orders-value: NONE\n',
    );
    // a subject without a level of its own shows the global one
    expect((await run(['schemas', '--compatibility', '--subject', 'docs-value'])).stdout).toBe(
      'Compatibility level of subject docs-value: BACKWARD\n',
    );
    const bad = await run(['schemas', '--compatibility', '--level', 'SIDEWAYS']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--level must be one of');
    // NONE lets the breaking schema in now
    const breaking = await run([
      'schemas',
      '--register',
      '--subject',
      'orders-value',
      '--schema-file',
      file('breaking.avsc', ORDER_BREAKING),
    ]);
    expect(breaking.code, breaking.stderr).toBe(0);
    expect(breaking.stdout).toContain('version 3.');
  });

  it('soft-deletes a version, then deletes a subject for good', async () => {
    const file1 = file('temp.avsc', { type: 'record', name: 'Temp', fields: [{ name: 'a', type: 'int' }] });
    expect((await run(['schemas', '--register', '--subject', 'temp-value', '--schema-file', file1])).code).toBe(0);
    const soft = await run(['schemas', '--delete', '--subject', 'orders-value', '--version', '3']);
    expect(soft.stdout).toBe('Deleted subject orders-value version 3 (soft).\n');
    const versions = JSON.parse(
      (await run(['schemas', '--describe', '--subject', 'orders-value', '--output', 'json'])).stdout,
    );
    expect(versions.versions).toEqual([1, 2]);
    const gone = await run(['schemas', '--delete', '--subject', 'temp-value', '--permanent']);
    expect(gone.stdout).toBe('Deleted subject temp-value (versions 1) (permanently).\n');
    const listed = await run(['schemas', '--list', '--deleted']);
    expect(listed.stdout.split('\n')).not.toContain('temp-value');
    const usage = await run(['schemas', '--delete']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--delete needs --subject');
  });
});

describe('console tools with schemas', () => {
  it('produces JSON lines as Avro in the wire format and consumes them back as JSON', async () => {
    const schemaFile = file('order-producer.avsc', ORDER_V2);
    const produced = await run(
      ['console-producer', '--topic', 'orders', '--value-schema-file', schemaFile, '--format', 'avro'],
      '{"id": 1, "note": null}\n{"id": 2, "note": {"string": "rush"}}\nnot json\n{"id": "three"}\n',
    );
    expect(produced.code).toBe(1);
    expect(produced.stderr).toContain('line 3 not produced: the value is not JSON');
    expect(produced.stderr).toMatch(/line 4 not produced: .*\(error 4220\d\)/);
    expect(produced.stderr).toContain('2 of 4 records failed');

    const version2 = JSON.parse(
      (await run(['schemas', '--describe', '--subject', 'orders-value', '--version', '2', '--output', 'json'])).stdout,
    );
    const stored = await storedValues('orders');
    expect(stored.length).toBe(2);
    expect(stored[0][0]).toBe(0);
    expect(stored[0].readUInt32BE(1)).toBe(version2.id);
    const independent = new ConfluentClient({ host: broker.registryUrl });
    expect(await independent.decode(stored[1])).toEqual({ id: 2, note: 'rush' });

    // a plain record between them: reported, not printed
    const plain = await run(['console-producer', '--topic', 'orders'], 'plain text\n');
    expect(plain.code, plain.stderr).toBe(0);
    expect(
      (
        await run(
          ['console-producer', '--topic', 'orders', '--value-schema-file', schemaFile],
          '{"id": 3, "note": null}\n',
        )
      ).code,
    ).toBe(0);

    const consumed = await run([
      'console-consumer',
      '--topic',
      'orders',
      '--from-beginning',
      '--format',
      'avro',
      '--max-messages',
      '3',
      '--property',
      'print.schema.ids=true',
    ]);
    expect(consumed.code, consumed.stderr).toBe(0);
    expect(consumed.stdout).toBe(
      [
        `{"id":1,"note":null}\t${version2.id}`,
        `{"id":2,"note":{"string":"rush"}}\t${version2.id}`,
        `{"id":3,"note":null}\t${version2.id}`,
      ]
        .map((line) => `${line}\n`)
        .join(''),
    );
    expect(consumed.stderr).toMatch(/brook: skipped partition 0 offset 2: value: .*\(error \d+\)/);
    expect(consumed.stderr).toContain('Processed a total of 3 messages');

    const asGroup = await run([
      'console-consumer',
      '--topic',
      'orders',
      '--group',
      'avro-readers',
      '--from-beginning',
      '--format',
      'avro',
      '--max-messages',
      '3',
    ]);
    expect(asGroup.code, asGroup.stderr).toBe(0);
    expect(
      asGroup.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).id),
    ).toEqual([1, 2, 3]);
  });

  it("uses the subject's latest schema with --format alone, and JSON Schema and Protobuf with key schemas", async () => {
    const docs = await run(
      ['console-producer', '--topic', 'docs', '--value-schema-file', file('doc.json', DOC), '--format', 'jsonschema'],
      '{"title": "a"}\n{"pages": 3}\n',
    );
    expect(docs.code).toBe(1);
    expect(docs.stderr).toContain('line 2 not produced');
    // the subject exists now: --format alone sends with its latest schema
    const more = await run(['console-producer', '--topic', 'docs', '--format', 'jsonschema'], '{"title": "b"}\n');
    expect(more.code, more.stderr).toBe(0);
    const docsRead = await run([
      'console-consumer',
      '--topic',
      'docs',
      '--from-beginning',
      '--format',
      'jsonschema',
      '--max-messages',
      '2',
    ]);
    expect(docsRead.stdout).toBe('{"title":"a"}\n{"title":"b"}\n');

    const readings = await run(
      [
        'console-producer',
        '--topic',
        'readings',
        '--format',
        'protobuf',
        '--value-schema-file',
        file('reading.proto', PROTO),
        '--key-schema-file',
        file('key.proto', PROTO_KEY),
        '--property',
        'parse.key=true',
        '--property',
        'key.separator=|',
      ],
      '{"sensor": "s1"}|{"sensor": "s1", "celsius": 21.5}\n',
    );
    expect(readings.code, readings.stderr).toBe(0);
    const key = await run(['schemas', '--describe', '--subject', 'readings-key', '--output', 'json']);
    expect(JSON.parse(key.stdout)).toMatchObject({ schemaType: 'PROTOBUF', version: 1 });
    const readBack = await run([
      'console-consumer',
      '--topic',
      'readings',
      '--from-beginning',
      '--format',
      'protobuf',
      '--max-messages',
      '1',
      '--property',
      'print.key=true',
    ]);
    expect(readBack.stdout).toBe('{"sensor":"s1"}\t{"sensor":"s1","celsius":21.5}\n');

    const keyWithoutParse = await run([
      'console-producer',
      '--topic',
      'readings',
      '--key-schema-file',
      file('key.proto', PROTO_KEY),
    ]);
    expect(keyWithoutParse.code).toBe(2);
    expect(keyWithoutParse.stderr).toContain('--key-schema-file needs --property parse.key=true');
  });
});
