import { describe, expect, it } from 'vitest';
import type { BrookError } from '../../common/brook-error.js';
import { parseSchema } from './parse-schema.js';
import { decide, type DecisionContext, type RegistryCommand } from './registry-commands.js';
import type { JsonValue } from './parsed-schema.js';
import { RegistryState } from './registry-state.js';
import type { SchemaInput } from './schema-types.js';

// The decisions of the registry's writes, replayed into a state as the writer does: ids are handed out from a
// counter here, as the coordination store's would.

class Registry {
  readonly state = new RegistryState();
  private nextId = 1;
  readonly context: DecisionContext = {
    parse: (input) => parseSchema(input, this.state),
    parsedVersion: (value) => parseSchema(value, this.state),
    schemaBytesMax: 10_000,
    versionsMax: 20,
  };

  run(command: RegistryCommand): JsonValue {
    const decision = decide(this.state, command, this.context);
    const outcome = decision.kind === 'done' ? decision : decision.complete(this.nextId++);
    for (const record of outcome.records) this.state.apply(record);
    return outcome.response;
  }

  register(subject: string, schema: SchemaInput | string, extra: Partial<RegistryCommand> = {}): JsonValue {
    const input = typeof schema === 'string' ? { schemaType: 'AVRO' as const, schema } : schema;
    return this.run({ op: 'register', subject, schema: input, normalize: false, ...extra } as RegistryCommand);
  }

  failure(command: () => unknown): { status: number; code: number; message: string } {
    try {
      command();
    } catch (error) {
      const { status, errorCode, message } = error as BrookError;
      return { status, code: errorCode, message };
    }
    throw new Error('expected a refusal');
  }
}

const record = (fields: string) => JSON.stringify({ type: 'record', name: 'User', fields: JSON.parse(fields) });
const V1 = record('[{"name":"name","type":"string"}]');
const V2 = record('[{"name":"name","type":"string"},{"name":"age","type":"int","default":0}]');
const NO_DEFAULT = record('[{"name":"name","type":"string"},{"name":"age","type":"int"}]');

describe('register', () => {
  it('gives a new schema a new id and the next version; the same schema again answers its id and writes nothing', () => {
    const registry = new Registry();
    expect(registry.register('s', V1)).toEqual({ id: 1 });
    const before = registry.state.versionCount();
    expect(registry.register('s', ` ${V1}\n`)).toEqual({ id: 1 });
    expect(registry.state.versionCount()).toBe(before);
    expect(registry.register('s', V2)).toEqual({ id: 2 });
    expect(registry.state.versions('s', false).map((v) => [v.version, v.id])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('gives the same schema under another subject the same id, and keeps the text as it was given', () => {
    const registry = new Registry();
    registry.register('a', V1);
    const spaced = JSON.stringify(JSON.parse(V1), null, 2);
    expect(registry.register('b', spaced)).toEqual({ id: 1 });
    expect(registry.state.version('b', 1, false)?.schema).toBe(spaced);
  });

  it('refuses an incompatible schema with 409 and the reasons, at the subject level or the global one', () => {
    const registry = new Registry();
    registry.register('s', V1);
    const refused = registry.failure(() => registry.register('s', NO_DEFAULT));
    expect(refused).toMatchObject({ status: 409, code: 409 });
    expect(refused.message).toMatch(/incompatible with an earlier schema for subject "s".*age.*BACKWARD/);
    registry.run({ op: 'set-config', subject: 's', config: { compatibilityLevel: 'NONE' } });
    expect(registry.register('s', NO_DEFAULT)).toEqual({ id: 2 });
    registry.run({ op: 'set-config', subject: null, config: { compatibilityLevel: 'FORWARD' } });
    registry.register('t', NO_DEFAULT);
    expect(registry.failure(() => registry.register('t', V1)).message).toMatch(/FORWARD/);
    expect(registry.register('t', V2)).toEqual({ id: 3 });
  });

  it('checks transitive levels against every live version, and only live ones', () => {
    const registry = new Registry();
    registry.run({ op: 'set-config', subject: 's', config: { compatibilityLevel: 'BACKWARD_TRANSITIVE' } });
    registry.register('s', record('[{"name":"a","type":"string"}]'));
    registry.register('s', record('[{"name":"a","type":"string"},{"name":"b","type":"int","default":1}]'));
    const dropsA = record('[{"name":"b","type":"int","default":1},{"name":"c","type":"int"}]');
    expect(registry.failure(() => registry.register('s', dropsA)).code).toBe(409);
    registry.run({ op: 'delete-version', subject: 's', version: 1, permanent: false });
    registry.run({ op: 'delete-version', subject: 's', version: 2, permanent: false });
    expect(registry.register('s', dropsA)).toEqual({ id: 3 });
    expect(registry.state.version('s', 'latest', false)?.version).toBe(3);
  });

  it('refuses an invalid schema (42201), a schema past the size bound (42209) and past the version bound (42205)', () => {
    const registry = new Registry();
    expect(registry.failure(() => registry.register('s', '{"type":"nope"}')).code).toBe(42201);
    expect(
      registry.failure(() => registry.register('s', JSON.stringify({ type: 'string', doc: 'x'.repeat(10_001) }))),
    ).toMatchObject({ status: 422, code: 42209 });
    registry.run({ op: 'set-config', subject: null, config: { compatibilityLevel: 'NONE' } });
    for (let i = 0; i < 20; i++) registry.register(`s${i}`, JSON.stringify({ type: 'fixed', name: 'F', size: i + 1 }));
    expect(registry.failure(() => registry.register('x', V1)).code).toBe(42205);
  });

  it('resolves references, pinning "latest" (-1) to the version it names now', () => {
    const registry = new Registry();
    registry.register('address', record('[{"name":"street","type":"string"}]').replace('User', 'Address'));
    const person = JSON.stringify({ type: 'record', name: 'Person', fields: [{ name: 'home', type: 'Address' }] });
    const id = registry.register('person', {
      schemaType: 'AVRO',
      schema: person,
      references: [{ name: 'Address', subject: 'address', version: -1 }],
    });
    expect(registry.state.version('person', 1, false)?.references).toEqual([
      { name: 'Address', subject: 'address', version: 1 },
    ]);
    expect(id).toEqual({ id: 2 });
    const missing = {
      schemaType: 'AVRO' as const,
      schema: person,
      references: [{ name: 'Address', subject: 'no', version: 1 }],
    };
    expect(registry.failure(() => registry.register('p2', missing)).code).toBe(42201);
  });

  it('with normalize, recognises a schema written another way and stores the normalized text', () => {
    const registry = new Registry();
    const a = { schemaType: 'JSON' as const, schema: '{"type":"object","properties":{"x":{"type":"string"}}}' };
    const b = { schemaType: 'JSON' as const, schema: '{"properties":{"x":{"type":"string"}},"type":"object"}' };
    expect(registry.register('j', a, { normalize: true } as Partial<RegistryCommand>)).toEqual({ id: 1 });
    expect(registry.register('j', b, { normalize: true } as Partial<RegistryCommand>)).toEqual({ id: 1 });
    expect(registry.state.version('j', 1, false)?.schema).toBe(
      '{"properties":{"x":{"type":"string"}},"type":"object"}',
    );
    registry.run({ op: 'set-config', subject: 'k', config: { compatibilityLevel: 'BACKWARD', normalize: true } });
    registry.register('k', a);
    expect(registry.register('k', b)).toEqual({ id: 1 });
  });
});

describe('modes', () => {
  it('refuses writes in READONLY mode, and registrations without an id in IMPORT mode', () => {
    const registry = new Registry();
    registry.register('s', V1);
    registry.run({ op: 'set-mode', subject: 's', mode: 'READONLY', force: false });
    expect(registry.failure(() => registry.register('s', V2))).toMatchObject({ code: 42205 });
    expect(registry.failure(() => registry.run({ op: 'delete-subject', subject: 's', permanent: false })).code).toBe(
      42205,
    );
    expect(registry.register('t', V1)).toEqual({ id: 1 });
    registry.run({ op: 'delete-mode', subject: 's' });
    expect(registry.register('s', V2)).toEqual({ id: 2 });
  });

  it('switches to IMPORT only with force when schemas exist, then registers under the ids and versions given', () => {
    const registry = new Registry();
    registry.register('s', V1);
    expect(
      registry.failure(() => registry.run({ op: 'set-mode', subject: null, mode: 'IMPORT', force: false })).code,
    ).toBe(42205);
    registry.run({ op: 'set-mode', subject: null, mode: 'IMPORT', force: true });
    expect(registry.failure(() => registry.register('x', V2)).message).toMatch(/not in read-write mode/);
    expect(registry.register('x', NO_DEFAULT, { id: 100, version: 5 } as Partial<RegistryCommand>)).toEqual({
      id: 100,
    });
    expect(registry.state.version('x', 5, false)?.id).toBe(100);
    expect(registry.failure(() => registry.register('y', V2, { id: 100 } as Partial<RegistryCommand>)).code).toBe(
      42207,
    );
    expect(registry.state.highestId()).toBe(100);
    registry.run({ op: 'set-mode', subject: null, mode: 'READWRITE', force: false });
    expect(registry.failure(() => registry.register('z', V2, { id: 7 } as Partial<RegistryCommand>)).message).toMatch(
      /not in import mode/,
    );
  });
});

describe('deletes', () => {
  it('soft-deletes then permanently deletes a version, each in its turn, with the id floor written', () => {
    const registry = new Registry();
    registry.register('s', V1);
    registry.register('s', V2);
    expect(
      registry.failure(() => registry.run({ op: 'delete-version', subject: 's', version: 1, permanent: true })),
    ).toMatchObject({ status: 404, code: 40407 });
    expect(registry.run({ op: 'delete-version', subject: 's', version: 'latest', permanent: false })).toBe(2);
    expect(
      registry.failure(() => registry.run({ op: 'delete-version', subject: 's', version: 2, permanent: false })).code,
    ).toBe(40406);
    expect(registry.state.schemaById(2)?.id).toBe(2);
    expect(registry.run({ op: 'delete-version', subject: 's', version: 2, permanent: true })).toBe(2);
    expect(registry.state.schemaById(2)).toBeUndefined();
    expect(registry.state.highestId()).toBe(2);
    expect(
      registry.failure(() => registry.run({ op: 'delete-version', subject: 's', version: 9, permanent: false })).code,
    ).toBe(40402);
    expect(
      registry.failure(() => registry.run({ op: 'delete-version', subject: 'x', version: 1, permanent: false })).code,
    ).toBe(40401);
  });

  it('soft-deletes a subject, refuses it twice, permanently deletes it with its settings, and numbers from 1 again', () => {
    const registry = new Registry();
    registry.register('s', V1);
    registry.register('s', V2);
    registry.run({ op: 'set-config', subject: 's', config: { compatibilityLevel: 'NONE' } });
    expect(registry.failure(() => registry.run({ op: 'delete-subject', subject: 's', permanent: true })).code).toBe(
      40405,
    );
    expect(registry.run({ op: 'delete-subject', subject: 's', permanent: false })).toEqual([1, 2]);
    expect(registry.state.subjects(false)).toEqual([]);
    expect(registry.state.subjects(true)).toEqual(['s']);
    expect(registry.failure(() => registry.run({ op: 'delete-subject', subject: 's', permanent: false })).code).toBe(
      40404,
    );
    expect(registry.run({ op: 'delete-subject', subject: 's', permanent: true })).toEqual([1, 2]);
    expect(registry.state.config('s')).toBeUndefined();
    expect(registry.register('s', NO_DEFAULT)).toEqual({ id: 3 });
    expect(registry.state.version('s', 'latest', false)?.version).toBe(1);
  });

  it('keeps a version that another subject references (42206), and lets it go once the referrer is gone', () => {
    const registry = new Registry();
    registry.register('address', record('[{"name":"street","type":"string"}]').replace('User', 'Address'));
    const person = JSON.stringify({ type: 'record', name: 'Person', fields: [{ name: 'home', type: 'Address' }] });
    registry.register('person', {
      schemaType: 'AVRO',
      schema: person,
      references: [{ name: 'Address', subject: 'address', version: 1 }],
    });
    const deleteAddress = () => registry.run({ op: 'delete-subject', subject: 'address', permanent: false });
    expect(registry.failure(deleteAddress)).toMatchObject({ code: 42206 });
    registry.run({ op: 'delete-subject', subject: 'person', permanent: false });
    expect(deleteAddress()).toEqual([1]);
    expect(
      registry.failure(() => registry.run({ op: 'delete-subject', subject: 'address', permanent: true })).code,
    ).toBe(42206);
  });
});

describe('configuration', () => {
  it('echoes a level set, answers the one deleted, and refuses deleting a level a subject does not have', () => {
    const registry = new Registry();
    expect(registry.run({ op: 'set-config', subject: null, config: { compatibilityLevel: 'FULL' } })).toEqual({
      compatibility: 'FULL',
    });
    expect(registry.run({ op: 'delete-config', subject: null })).toEqual({ compatibilityLevel: 'FULL' });
    expect(registry.state.effectiveConfig(null)).toEqual({ compatibilityLevel: 'BACKWARD' });
    expect(registry.failure(() => registry.run({ op: 'delete-config', subject: 'nobody' })).code).toBe(40401);
    registry.register('s', V1);
    expect(registry.failure(() => registry.run({ op: 'delete-config', subject: 's' })).code).toBe(40408);
    expect(registry.run({ op: 'set-mode', subject: 's', mode: 'READONLY', force: false })).toEqual({
      mode: 'READONLY',
    });
    expect(registry.run({ op: 'delete-mode', subject: 's' })).toEqual({ mode: 'READONLY' });
    expect(registry.failure(() => registry.run({ op: 'delete-mode', subject: 's' })).code).toBe(40401);
  });
});
