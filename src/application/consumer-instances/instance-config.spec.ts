import { describe, expect, it } from 'vitest';
import { BrookError } from '../../common/brook-error.js';
import { INSTANCE_NAME_MAX_LENGTH, parseCreateInstance } from './instance-config.js';

// The body of REST Proxy v2's POST /consumers/{group}: Confluent's fields, defaults, and 42204 for bad values.

const DEFAULTS = { requestTimeoutMs: 1000 };
const NOW_MS = 1_700_000_000_000;

const parse = (body: unknown) => parseCreateInstance(body, DEFAULTS, NOW_MS);

function expect42204(body: unknown, message?: string | RegExp): void {
  let thrown: unknown;
  try {
    parse(body);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, JSON.stringify(body)).toBeInstanceOf(BrookError);
  expect((thrown as BrookError).status).toBe(422);
  expect((thrown as BrookError).errorCode).toBe(42204);
  if (message !== undefined) expect((thrown as BrookError).message).toMatch(message);
}

describe('parseCreateInstance', () => {
  it("fills Confluent's defaults for an empty body", () => {
    const { name, value } = parse({});
    expect(name).toMatch(/^rest-consumer-[0-9a-f-]{36}$/);
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

  it('treats a missing or null body as an empty one, and names each instance differently', () => {
    const first = parse(undefined);
    const second = parse(null);
    expect(first.value.format).toBe('binary');
    expect(first.name).not.toBe(second.name);
  });

  it('reads every field, native values', () => {
    expect(
      parse({
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
    const { value } = parse({
      'auto.commit.enable': 'false',
      'fetch.min.bytes': '2048',
      'consumer.request.timeout.ms': ' 500 ',
    });
    expect(value).toMatchObject({ autoCommitEnable: false, fetchMinBytes: 2048, requestTimeoutMs: 500 });
    expect(parse({ 'auto.commit.enable': 'true' }).value.autoCommitEnable).toBe(true);
  });

  it('treats null fields as absent', () => {
    const { value } = parse({
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

  it("refuses '.' and '..' as names: they would be dot segments of base_uri", () => {
    for (const name of ['.', '..']) expect(() => parse({ name })).toThrow(/must not be '.' or '..'/);
    expect(parse({ name: '...' }).name).toBe('...');
  });

  it("accepts the deprecated 'id' as the name, and prefers 'name' when both are given", () => {
    expect(parse({ id: 'old-style' }).name).toBe('old-style');
    expect(parse({ id: 'old-style', name: 'new-style' }).name).toBe('new-style');
  });

  it('accepts each auto.offset.reset, and the old consumer names smallest and largest', () => {
    expect(parse({ 'auto.offset.reset': 'latest' }).value.autoOffsetReset).toBe('latest');
    expect(parse({ 'auto.offset.reset': 'none' }).value.autoOffsetReset).toBe('none');
    expect(parse({ 'auto.offset.reset': 'smallest' }).value.autoOffsetReset).toBe('earliest');
    expect(parse({ 'auto.offset.reset': 'largest' }).value.autoOffsetReset).toBe('latest');
  });

  it(`accepts a name of exactly ${INSTANCE_NAME_MAX_LENGTH} characters`, () => {
    const name = 'n'.repeat(INSTANCE_NAME_MAX_LENGTH);
    expect(parse({ name }).name).toBe(name);
  });

  describe('rejects with 42204', () => {
    it.each([
      ['an array body', []],
      ['a string body', 'consumer'],
      ['a number body', 5],
    ])('%s', (_label, body) => expect42204(body, 'The body must be a JSON object.'));

    it.each([
      ['an empty name', { name: '' }],
      ['a name that is too long', { name: 'n'.repeat(INSTANCE_NAME_MAX_LENGTH + 1) }],
      ['a name with a slash', { name: 'a/b' }],
      ['a name with a space', { name: 'a b' }],
      ['a name with a percent sign', { name: 'a%2F' }],
      ['a non-ASCII name', { name: 'é' }],
      ['a numeric name', { name: 5 }],
      ['a numeric id', { id: 5 }],
    ])('%s', (_label, body) => expect42204(body, /^name must be 1 to 200 characters/));

    it.each(['avro', 'jsonschema', 'protobuf'])('format %s, naming the missing schema registry', (format) =>
      expect42204({ format }, /schema registry/),
    );

    it.each([['xml'], [''], [1]])('format %j', (format) => expect42204({ format }, 'format must be binary or json.'));

    it.each([['beginning'], [''], [true]])('auto.offset.reset %j', (reset) =>
      expect42204({ 'auto.offset.reset': reset }, 'auto.offset.reset must be earliest, latest or none.'),
    );

    it.each([['yes'], [1], [0], ['']])('auto.commit.enable %j', (flag) =>
      expect42204({ 'auto.commit.enable': flag }, 'auto.commit.enable must be true or false.'),
    );

    it.each([[-1], ['-1'], [1.5], ['1.5'], [''], ['  '], ['abc'], [true], [Number.MAX_SAFE_INTEGER + 1], [{}]])(
      'fetch.min.bytes and consumer.request.timeout.ms %j',
      (raw) => {
        expect42204({ 'fetch.min.bytes': raw }, 'fetch.min.bytes must be a non-negative integer.');
        expect42204(
          { 'consumer.request.timeout.ms': raw },
          'consumer.request.timeout.ms must be a non-negative integer.',
        );
      },
    );
  });
});
