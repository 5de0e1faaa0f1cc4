import { describe, expect, it } from 'vitest';
import {
  countOf,
  flagOf,
  INSTANCE_NAME_MAX_LENGTH,
  isInstanceName,
  newInstance,
  offsetResetOf,
} from './instance-config.js';

// The body of REST Proxy v2's POST /consumers/{group}, once the REST edge has validated it (the rejections are
// specified in v2-consumer.controller.spec.ts): Confluent's fields and defaults, and the values as clients send them.

const DEFAULTS = { requestTimeoutMs: 1000 };
const NOW_MS = 1_700_000_000_000;

const create = (body: object) => newInstance(body, DEFAULTS, NOW_MS);

describe('newInstance', () => {
  it("fills Confluent's defaults for an empty body, and names each instance differently", () => {
    const { name, value } = create({});
    expect(name).toMatch(/^rest-consumer-[0-9a-f-]{36}$/);
    expect(create({}).name).not.toBe(name);
    expect(value).toEqual({
      format: 'binary',
      autoOffsetReset: 'latest',
      autoCommitEnable: true,
      fetchMinBytes: 1,
      requestTimeoutMs: 1000,
      subscription: null,
      assignment: null,
      createdAtMs: NOW_MS,
    });
  });

  it.each(['avro', 'jsonschema', 'protobuf'] as const)("takes Confluent's schema format %s", (format) => {
    expect(create({ format }).value.format).toBe(format);
  });

  it('reads every field, native values', () => {
    expect(
      create({
        name: 'my_consumer.1~x-y',
        format: 'json',
        'auto.offset.reset': 'earliest',
        'auto.commit.enable': false,
        'fetch.min.bytes': 1024,
        'consumer.request.timeout.ms': 0,
      }),
    ).toEqual({
      name: 'my_consumer.1~x-y',
      value: {
        format: 'json',
        autoOffsetReset: 'earliest',
        autoCommitEnable: false,
        fetchMinBytes: 1024,
        requestTimeoutMs: 0,
        subscription: null,
        assignment: null,
        createdAtMs: NOW_MS,
      },
    });
  });

  it('reads the strings that Confluent clients send for booleans and numbers', () => {
    const { value } = create({
      'auto.commit.enable': 'false',
      'fetch.min.bytes': '2048',
      'consumer.request.timeout.ms': ' 500 ',
    });
    expect(value).toMatchObject({ autoCommitEnable: false, fetchMinBytes: 2048, requestTimeoutMs: 500 });
    expect(create({ 'auto.commit.enable': 'true' }).value.autoCommitEnable).toBe(true);
  });

  it('treats null fields as absent', () => {
    const { value } = create({
      format: null,
      'auto.offset.reset': null,
      'auto.commit.enable': null,
      'fetch.min.bytes': null,
      'consumer.request.timeout.ms': null,
    });
    expect(value).toMatchObject({
      format: 'binary',
      autoOffsetReset: 'latest',
      autoCommitEnable: true,
      fetchMinBytes: 1,
      requestTimeoutMs: 1000,
    });
  });

  it("accepts the deprecated 'id' as the name, and prefers 'name' when both are given", () => {
    expect(create({ id: 'old-style' }).name).toBe('old-style');
    expect(create({ id: 'old-style', name: 'new-style' }).name).toBe('new-style');
  });

  it('accepts each auto.offset.reset, and the old consumer names smallest and largest', () => {
    expect(create({ 'auto.offset.reset': 'latest' }).value.autoOffsetReset).toBe('latest');
    expect(create({ 'auto.offset.reset': 'none' }).value.autoOffsetReset).toBe('none');
    expect(create({ 'auto.offset.reset': 'smallest' }).value.autoOffsetReset).toBe('earliest');
    expect(create({ 'auto.offset.reset': 'largest' }).value.autoOffsetReset).toBe('latest');
  });
});

describe('the value checks the REST edge validates with', () => {
  it(`takes names of 1 to ${INSTANCE_NAME_MAX_LENGTH} path-safe characters`, () => {
    expect(isInstanceName('n'.repeat(INSTANCE_NAME_MAX_LENGTH))).toBe(true);
    for (const name of ['', 'n'.repeat(INSTANCE_NAME_MAX_LENGTH + 1), 'a/b', 'a b', 'a%2F', 'é', 5, null]) {
      expect(isInstanceName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('reads counts, flags and offset resets, and nothing else', () => {
    expect([0, '7', ' 500 ', Number.MAX_SAFE_INTEGER].map(countOf)).toEqual([0, 7, 500, Number.MAX_SAFE_INTEGER]);
    for (const raw of [-1, '-1', 1.5, '1.5', '', '  ', 'abc', true, Number.MAX_SAFE_INTEGER + 1, {}]) {
      expect(countOf(raw), JSON.stringify(raw)).toBeNull();
    }
    expect([true, 'true', false, 'false', 'yes', 1, 0, ''].map(flagOf)).toEqual([
      true,
      true,
      false,
      false,
      null,
      null,
      null,
      null,
    ]);
    expect(['beginning', '', true, 'EARLIEST'].map(offsetResetOf)).toEqual([null, null, null, null]);
  });
});
