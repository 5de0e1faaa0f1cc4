// The built-in schema registry on one broker, through Confluent's REST API: on its own port and at the root of the
// HTTP port, every answer checked against openapi.yaml and carrying the registry's media type; registration (an
// identical schema keeps its id, another subject shares it, an incompatible one is refused with 409), reads by
// subject, version and id, soft and permanent deletes, compatibility levels, modes, references and Confluent's
// error codes; a client nobody here wrote (@kafkajs/confluent-schema-registry) registering and reading; and the
// registry after kill -9.
import { SchemaRegistry as ConfluentClient, SchemaType } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerProcess } from './support/broker-process.js';
import { call, expectError, type CallOptions } from './support/http.js';

const MEDIA_TYPE = 'application/vnd.schemaregistry.v1+json';
const avro = (fields: object[], name = 'User') => JSON.stringify({ type: 'record', name, fields });
const USER_V1 = avro([{ name: 'name', type: 'string' }]);
const USER_V2 = avro([
  { name: 'name', type: 'string' },
  { name: 'age', type: 'int', default: 0 },
]);
const USER_BREAKING = avro([{ name: 'id', type: 'long' }]);

let broker: BrokerProcess;

beforeAll(async () => {
  broker = await BrokerProcess.start();
});
afterAll(async () => {
  await broker?.stop();
});

/** A registry call on the registry's own port, validated against openapi.yaml. */
function registry(method: string, path: string, spec: string, options: CallOptions = {}) {
  return call(broker.registryUrl, method, path, { contentType: MEDIA_TYPE, spec, ...options });
}

describe('the schema registry', () => {
  it('registers a schema and answers it by subject, version and id, in its media type, on both ports', async () => {
    expect((await registry('GET', '/subjects', '/subjects')).body).toEqual([]);
    const created = await registry('POST', '/subjects/users-value/versions', '/subjects/{subject}/versions', {
      body: { schema: USER_V1 },
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toBe(MEDIA_TYPE);
    const id = created.body.id as number;
    expect(id).toBeGreaterThan(0);

    const again = await registry('POST', '/subjects/users-value/versions', '/subjects/{subject}/versions', {
      body: { schema: JSON.stringify(JSON.parse(USER_V1), null, 2) },
    });
    expect(again.body).toEqual({ id });
    const elsewhere = await registry('POST', '/subjects/people-value/versions', '/subjects/{subject}/versions', {
      body: { schema: USER_V1, schemaType: 'AVRO' },
    });
    expect(elsewhere.body).toEqual({ id });

    const versionPath = '/subjects/{subject}/versions/{version}';
    const latest = await registry('GET', '/subjects/users-value/versions/latest', versionPath);
    expect(latest.body).toEqual({ subject: 'users-value', version: 1, id, schema: USER_V1 });
    expect((await registry('GET', '/subjects/users-value/versions/-1', versionPath)).body.version).toBe(1);
    const text = await registry('GET', '/subjects/users-value/versions/1/schema', `${versionPath}/schema`);
    expect(JSON.parse(text.text)).toEqual(JSON.parse(USER_V1));
    expect((await registry('GET', `/schemas/ids/${id}`, '/schemas/ids/{id}')).body).toEqual({ schema: USER_V1 });
    expect(JSON.parse((await registry('GET', `/schemas/ids/${id}/schema`, '/schemas/ids/{id}/schema')).text)).toEqual(
      JSON.parse(USER_V1),
    );
    expect((await registry('GET', `/schemas/ids/${id}/subjects`, '/schemas/ids/{id}/subjects')).body).toEqual([
      'people-value',
      'users-value',
    ]);
    expect((await registry('GET', `/schemas/ids/${id}/versions`, '/schemas/ids/{id}/versions')).body).toEqual([
      { subject: 'people-value', version: 1 },
      { subject: 'users-value', version: 1 },
    ]);
    expect((await registry('GET', '/schemas/types', '/schemas/types')).body).toEqual(['AVRO', 'JSON', 'PROTOBUF']);
    const lookUp = await registry('POST', '/subjects/users-value', '/subjects/{subject}', {
      body: { schema: USER_V1 },
    });
    expect(lookUp.body).toMatchObject({ subject: 'users-value', version: 1, id });

    const onHttpPort = await call(broker.url, 'GET', '/subjects', { spec: '/subjects' });
    expect(onHttpPort.body).toEqual(['people-value', 'users-value']);
    expect(onHttpPort.headers.get('content-type')).toBe(MEDIA_TYPE);
    const elsewhereOnRegistryPort = await call(broker.registryUrl, 'GET', '/v3/clusters');
    expect(elsewhereOnRegistryPort.status).toBe(404);
  });

  it('evolves a subject compatibly, refuses an incompatible evolution with 409 and says why', async () => {
    const evolved = await registry('POST', '/subjects/users-value/versions', '/subjects/{subject}/versions', {
      body: { schema: USER_V2 },
    });
    expect(evolved.status).toBe(200);
    const breaking = { schema: USER_BREAKING };
    const check = await registry(
      'POST',
      '/compatibility/subjects/users-value/versions/latest?verbose=true',
      '/compatibility/subjects/{subject}/versions/{version}',
      { body: breaking },
    );
    expect(check.body.is_compatible).toBe(false);
    expect(check.body.messages.join(' ')).toMatch(/BACKWARD/);
    const all = await registry(
      'POST',
      '/compatibility/subjects/users-value/versions',
      '/compatibility/subjects/{subject}/versions',
      { body: { schema: USER_V2 } },
    );
    expect(all.body).toEqual({ is_compatible: true });
    const refused = await registry('POST', '/subjects/users-value/versions', '/subjects/{subject}/versions', {
      body: breaking,
    });
    expectError(refused, 409, 409, /incompatible with an earlier schema for subject "users-value"/);
    expect(refused.headers.get('content-type')).toBe(MEDIA_TYPE);
    expect((await registry('GET', '/subjects/users-value/versions', '/subjects/{subject}/versions')).body).toEqual([
      1, 2,
    ]);
  });

  it('keeps compatibility levels and modes, global and per subject', async () => {
    expect((await registry('GET', '/config', '/config')).body).toEqual({ compatibilityLevel: 'BACKWARD' });
    const missing = await registry('GET', '/config/users-value', '/config/{subject}');
    expectError(missing, 404, 40408);
    expect((await registry('GET', '/config/users-value?defaultToGlobal=true', '/config/{subject}')).body).toEqual({
      compatibilityLevel: 'BACKWARD',
    });
    const set = await registry('PUT', '/config/users-value', '/config/{subject}', { body: { compatibility: 'none' } });
    expect(set.body).toEqual({ compatibility: 'NONE' });
    expect((await registry('GET', '/config/users-value', '/config/{subject}')).body).toEqual({
      compatibilityLevel: 'NONE',
    });
    const accepted = await registry('POST', '/subjects/users-value/versions', '/subjects/{subject}/versions', {
      body: { schema: USER_BREAKING },
    });
    expect(accepted.status).toBe(200);
    expectError(await registry('PUT', '/config', '/config', { body: { compatibility: 'SIDEWAYS' } }), 422, 42203);

    expect((await registry('GET', '/mode', '/mode')).body).toEqual({ mode: 'READWRITE' });
    await registry('PUT', '/mode/users-value', '/mode/{subject}', { body: { mode: 'READONLY' } });
    const readOnly = await registry('POST', '/subjects/users-value/versions', '/subjects/{subject}/versions', {
      body: { schema: avro([{ name: 'x', type: 'int' }]) },
    });
    expectError(readOnly, 422, 42205, /read-only/);
    expectError(await registry('PUT', '/mode', '/mode', { body: { mode: 'IMPORT' } }), 422, 42205, /force=true/);
    expectError(await registry('PUT', '/mode', '/mode', { body: { mode: 'WRITEONLY' } }), 422, 42204);
    expect((await registry('DELETE', '/mode/users-value', '/mode/{subject}')).body).toEqual({ mode: 'READONLY' });
    expect((await registry('DELETE', '/config/users-value', '/config/{subject}')).body).toEqual({
      compatibilityLevel: 'NONE',
    });
  });

  it('resolves references between subjects', async () => {
    const address = avro([{ name: 'street', type: 'string' }], 'Address');
    await registry('POST', '/subjects/address-value/versions', '/subjects/{subject}/versions', {
      body: { schema: address },
    });
    const person = avro([{ name: 'home', type: 'Address' }], 'Person');
    const created = await registry('POST', '/subjects/person-value/versions', '/subjects/{subject}/versions', {
      body: { schema: person, references: [{ name: 'Address', subject: 'address-value', version: 1 }] },
    });
    expect(created.status).toBe(200);
    const read = await registry('GET', '/subjects/person-value/versions/1', '/subjects/{subject}/versions/{version}');
    expect(read.body.references).toEqual([{ name: 'Address', subject: 'address-value', version: 1 }]);
    const referencing = await registry(
      'GET',
      '/subjects/address-value/versions/1/referencedby',
      '/subjects/{subject}/versions/{version}/referencedby',
    );
    expect(referencing.body).toEqual([created.body.id]);
    expectError(
      await registry('DELETE', '/subjects/address-value', '/subjects/{subject}'),
      422,
      42206,
      /references exist/,
    );
    const dangling = await registry('POST', '/subjects/other-value/versions', '/subjects/{subject}/versions', {
      body: { schema: person },
    });
    expectError(dangling, 422, 42201);
  });

  it('soft-deletes, keeps soft-deleted ids readable, and deletes permanently only what was soft-deleted', async () => {
    const subject = '/subjects/people-value';
    const firstId = (await registry('GET', `${subject}/versions/1`, '/subjects/{subject}/versions/{version}')).body.id;
    expectError(await registry('DELETE', `${subject}?permanent=true`, '/subjects/{subject}'), 404, 40405);
    expect((await registry('DELETE', subject, '/subjects/{subject}')).body).toEqual([1]);
    expectError(await registry('DELETE', subject, '/subjects/{subject}'), 404, 40404);
    expect((await registry('GET', '/subjects', '/subjects')).body).not.toContain('people-value');
    expect((await registry('GET', '/subjects?deleted=true', '/subjects')).body).toContain('people-value');
    expectError(await registry('GET', `${subject}/versions`, '/subjects/{subject}/versions'), 404, 40401);
    expect((await registry('GET', `${subject}/versions?deleted=true`, '/subjects/{subject}/versions')).body).toEqual([
      1,
    ]);
    expect((await registry('GET', `/schemas/ids/${firstId}`, '/schemas/ids/{id}')).status).toBe(200);
    expect((await registry('DELETE', `${subject}?permanent=true`, '/subjects/{subject}')).body).toEqual([1]);
    expect((await registry('GET', '/subjects?deleted=true', '/subjects')).body).not.toContain('people-value');

    const version = '/subjects/{subject}/versions/{version}';
    expectError(await registry('DELETE', '/subjects/users-value/versions/1?permanent=true', version), 404, 40407);
    expect((await registry('DELETE', '/subjects/users-value/versions/1', version)).body).toBe(1);
    expectError(await registry('DELETE', '/subjects/users-value/versions/1', version), 404, 40406);
    expect((await registry('DELETE', '/subjects/users-value/versions/1?permanent=true', version)).body).toBe(1);
    expectError(await registry('GET', '/subjects/users-value/versions/1?deleted=true', version), 404, 40402);
  });

  it("answers Confluent's error codes for what is not there and what it will not take", async () => {
    expectError(
      await registry('GET', '/subjects/nobody/versions/1', '/subjects/{subject}/versions/{version}'),
      404,
      40401,
    );
    expectError(
      await registry('GET', '/subjects/users-value/versions/99', '/subjects/{subject}/versions/{version}'),
      404,
      40402,
    );
    expectError(
      await registry('GET', '/subjects/users-value/versions/one', '/subjects/{subject}/versions/{version}'),
      422,
      42202,
    );
    expectError(await registry('GET', '/schemas/ids/999999', '/schemas/ids/{id}'), 404, 40403);
    expectError(await registry('GET', '/schemas/ids/x', '/schemas/ids/{id}'), 404, 40403);
    const lookUp = await registry('POST', '/subjects/users-value', '/subjects/{subject}', {
      body: { schema: avro([{ name: 'never', type: 'int' }]) },
    });
    expectError(lookUp, 404, 40403);
    const invalid = await registry('POST', '/subjects/s/versions', '/subjects/{subject}/versions', {
      body: { schema: '{"type":"recrod"}' },
    });
    expectError(invalid, 422, 42201, /Invalid schema/);
    const badType = await registry('POST', '/subjects/s/versions', '/subjects/{subject}/versions', {
      body: { schema: '{}', schemaType: 'XML' },
    });
    expectError(badType, 422, 42201);
    const badSubject = await registry('POST', '/subjects/%20/versions', '/subjects/{subject}/versions', {
      body: { schema: USER_V1 },
    });
    expectError(badSubject, 422, 42208);
    const tooLarge = await registry('POST', '/subjects/s/versions', '/subjects/{subject}/versions', {
      body: { schema: JSON.stringify({ type: 'string', doc: 'x'.repeat(300_000) }) },
    });
    expectError(tooLarge, 422, 42209);
    const withId = await registry('POST', '/subjects/s/versions', '/subjects/{subject}/versions', {
      body: { schema: USER_V1, id: 5000 },
    });
    expectError(withId, 422, 42205, /not in import mode/);
    const malformed = await registry('POST', '/subjects/s/versions', '/subjects/{subject}/versions', {
      rawBody: '{"schema":',
    });
    expect(malformed.status).toBe(400);
  });

  it('serves a client nobody here wrote: @kafkajs/confluent-schema-registry registers, finds and reads schemas', async () => {
    const client = new ConfluentClient({ host: broker.registryUrl });
    const schema = avro([{ name: 'sku', type: 'string' }], 'Product');
    const { id } = await client.register({ type: SchemaType.AVRO, schema }, { subject: 'products-value' });
    expect(await client.getLatestSchemaId('products-value')).toBe(id);
    expect(await client.getRegistryIdBySchema('products-value', { type: SchemaType.AVRO, schema })).toBe(id);
    const fresh = new ConfluentClient({ host: broker.url });
    const encoded = await fresh.encode(id, { sku: 'A-1' });
    expect(await fresh.decode(encoded)).toEqual({ sku: 'A-1' });
    expect((await registry('GET', '/config/products-value', '/config/{subject}')).body).toEqual({
      compatibilityLevel: 'BACKWARD',
    });
    const json = JSON.stringify({ type: 'object', properties: { n: { type: 'number' } } });
    const jsonId = (await client.register({ type: SchemaType.JSON, schema: json }, { subject: 'numbers-value' })).id;
    expect((await registry('GET', `/schemas/ids/${jsonId}`, '/schemas/ids/{id}')).body).toEqual({
      schemaType: 'JSON',
      schema: json,
    });
  });

  it('keeps every schema, id and setting after kill -9, and hands out no id twice', async () => {
    const before = (await registry('GET', '/subjects', '/subjects')).body as string[];
    const latest = (
      await registry('GET', '/subjects/users-value/versions/latest', '/subjects/{subject}/versions/{version}')
    ).body;
    await broker.restart('SIGKILL');
    expect((await registry('GET', '/subjects', '/subjects')).body).toEqual(before);
    expect(
      (await registry('GET', '/subjects/users-value/versions/latest', '/subjects/{subject}/versions/{version}')).body,
    ).toEqual(latest);
    const created = await registry('POST', '/subjects/after-restart/versions', '/subjects/{subject}/versions', {
      body: { schema: avro([{ name: 'fresh', type: 'boolean' }], 'Fresh') },
    });
    expect(created.body.id).toBeGreaterThan(latest.id);
    const ids = await Promise.all(
      before.map(
        async (subject) =>
          (await registry('GET', `/subjects/${subject}/versions/latest`, '/subjects/{subject}/versions/{version}')).body
            .id as number,
      ),
    );
    expect(ids).not.toContain(created.body.id);
  });
});
