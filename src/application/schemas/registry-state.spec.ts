import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RegistryRecord, SchemaVersionValue } from './registry-records.js';
import { RegistryState } from './registry-state.js';

// The replay of `_schemas` against a model that is nothing but "the last record per key" (what compaction keeps),
// queried the slow way. An id's content and fingerprints are functions of the id here, as they are in a registry
// (every version holding an id has the same schema).

function versionValue(subject: string, version: number, id: number, deleted: boolean): SchemaVersionValue {
  return {
    subject,
    version,
    id,
    schemaType: id % 2 === 0 ? 'AVRO' : 'JSON',
    references: id % 3 === 0 ? [{ name: 'r', subject: 'a', version: 1 }] : [],
    schema: `schema ${id}`,
    deleted,
    fingerprint: `fp${id % 4}`,
    normalizedFingerprint: `nfp${id % 2}`,
  };
}

const subjects = fc.constantFrom('a', 'b', 'c');
const record: fc.Arbitrary<RegistryRecord> = fc.oneof(
  fc
    .record({
      subject: subjects,
      version: fc.integer({ min: 1, max: 4 }),
      id: fc.integer({ min: 1, max: 6 }),
      deleted: fc.boolean(),
      tombstone: fc.boolean(),
    })
    .map(({ subject, version, id, deleted, tombstone }) => ({
      kind: 'schema' as const,
      subject,
      version,
      value: tombstone ? null : versionValue(subject, version, id, deleted),
    })),
  fc.record({
    kind: fc.constant('config' as const),
    subject: fc.option(subjects, { nil: null }),
    value: fc.option(fc.constantFrom({ compatibilityLevel: 'FULL' as const }, { compatibilityLevel: 'NONE' as const })),
  }),
  fc.record({
    kind: fc.constant('mode' as const),
    subject: fc.option(subjects, { nil: null }),
    value: fc.option(fc.constantFrom('READONLY' as const, 'IMPORT' as const)),
  }),
  fc.record({ kind: fc.constant('max-schema-id' as const), id: fc.integer({ min: 1, max: 10 }) }),
);

class Model {
  readonly versions = new Map<string, SchemaVersionValue>();
  readonly configs = new Map<string | null, unknown>();
  readonly modes = new Map<string | null, unknown>();
  highest = 0;

  apply(r: RegistryRecord): void {
    if (r.kind === 'schema') {
      const key = `${r.subject}/${r.version}`;
      if (r.value === null) this.versions.delete(key);
      else {
        this.versions.set(key, r.value);
        this.highest = Math.max(this.highest, r.value.id);
      }
    } else if (r.kind === 'config') {
      if (r.value === null) this.configs.delete(r.subject);
      else this.configs.set(r.subject, r.value);
    } else if (r.kind === 'mode') {
      if (r.value === null) this.modes.delete(r.subject);
      else this.modes.set(r.subject, r.value);
    } else this.highest = Math.max(this.highest, r.id);
  }

  live(includeDeleted: boolean): SchemaVersionValue[] {
    return [...this.versions.values()].filter((v) => includeDeleted || !v.deleted);
  }
}

describe('RegistryState', () => {
  it('answers as the last record per key does, after any sequence of records', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), (records) => {
        const state = new RegistryState();
        const model = new Model();
        for (const r of records) {
          state.apply(r);
          model.apply(r);
        }
        for (const includeDeleted of [false, true]) {
          const live = model.live(includeDeleted);
          expect(state.subjects(includeDeleted)).toEqual([...new Set(live.map((v) => v.subject))].sort());
          for (const subject of ['a', 'b', 'c']) {
            const versions = live.filter((v) => v.subject === subject).sort((x, y) => x.version - y.version);
            expect(state.versions(subject, includeDeleted)).toEqual(versions);
            expect(state.hasSubject(subject, includeDeleted)).toBe(versions.length > 0);
            expect(state.version(subject, 'latest', includeDeleted)).toEqual(versions.at(-1));
          }
          for (let id = 1; id <= 6; id++) {
            const holders = live
              .filter((v) => v.id === id)
              .map((v) => ({ subject: v.subject, version: v.version }))
              .sort((x, y) => (x.subject === y.subject ? x.version - y.version : x.subject < y.subject ? -1 : 1));
            expect(state.holdersOf(id, includeDeleted)).toEqual(holders);
          }
        }
        for (let id = 1; id <= 6; id++) {
          const held = model.live(true).some((v) => v.id === id);
          expect(state.schemaById(id)?.schema).toBe(held ? `schema ${id}` : undefined);
        }
        for (let fp = 0; fp < 4; fp++) {
          const ids = model
            .live(true)
            .filter((v) => v.fingerprint === `fp${fp}`)
            .map((v) => v.id);
          expect(state.idByFingerprint(`fp${fp}`, false)).toBe(ids.length === 0 ? undefined : Math.min(...ids));
        }
        expect(state.versionCount()).toBe(model.versions.size);
        expect(state.highestId()).toBe(model.highest);
        for (const subject of [null, 'a', 'b', 'c']) {
          expect(state.config(subject)).toEqual(model.configs.get(subject));
          expect(state.mode(subject)).toEqual(model.modes.get(subject));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the highest id after the records naming it are gone, and floors raise it', () => {
    const state = new RegistryState();
    state.apply({ kind: 'schema', subject: 'a', version: 1, value: versionValue('a', 1, 40, false) });
    state.apply({ kind: 'schema', subject: 'a', version: 1, value: null });
    expect(state.schemaById(40)).toBeUndefined();
    expect(state.highestId()).toBe(40);
    state.apply({ kind: 'max-schema-id', id: 55 });
    state.apply({ kind: 'max-schema-id', id: 3 });
    expect(state.highestId()).toBe(55);
  });

  it('falls back from a subject to the global configuration and mode, then to the defaults', () => {
    const state = new RegistryState();
    expect(state.effectiveConfig('s')).toEqual({ compatibilityLevel: 'BACKWARD' });
    expect(state.effectiveMode('s')).toBe('READWRITE');
    state.apply({ kind: 'config', subject: null, value: { compatibilityLevel: 'FULL' } });
    state.apply({ kind: 'mode', subject: null, value: 'READONLY' });
    expect(state.effectiveConfig('s')).toEqual({ compatibilityLevel: 'FULL' });
    expect(state.effectiveMode('s')).toBe('READONLY');
    state.apply({ kind: 'config', subject: 's', value: { compatibilityLevel: 'NONE', normalize: true } });
    state.apply({ kind: 'mode', subject: 's', value: 'IMPORT' });
    expect(state.effectiveConfig('s')).toEqual({ compatibilityLevel: 'NONE', normalize: true });
    expect(state.effectiveMode('s')).toBe('IMPORT');
    expect(state.effectiveMode('other')).toBe('READONLY');
  });

  it('finds the versions that reference a version, soft-deleted referrers only when asked', () => {
    const state = new RegistryState();
    const referrer = (subject: string, deleted: boolean): SchemaVersionValue => ({
      ...versionValue(subject, 1, subject === 'b' ? 2 : 4, deleted),
      references: [{ name: 'x', subject: 'a', version: 1 }],
    });
    state.apply({ kind: 'schema', subject: 'a', version: 1, value: versionValue('a', 1, 1, false) });
    state.apply({ kind: 'schema', subject: 'b', version: 1, value: referrer('b', false) });
    state.apply({ kind: 'schema', subject: 'c', version: 1, value: referrer('c', true) });
    expect(state.referencedBy('a', 1, false).map((v) => v.subject)).toEqual(['b']);
    expect(state.referencedBy('a', 1, true).map((v) => v.subject)).toEqual(['b', 'c']);
    expect(state.referencedBy('a', 2, true)).toEqual([]);
  });
});
