import { describe, expect, it } from 'vitest';
import { normalizeBootstrapServer, parseBootstrapServers } from './bootstrap.js';
import { UsageError } from './errors.js';

describe('normalizeBootstrapServer', () => {
  it.each([
    ['localhost:8082', 'http://localhost:8082'],
    ['127.0.0.1:9092', 'http://127.0.0.1:9092'],
    ['broker-1', 'http://broker-1'],
    ['http://localhost:8082/', 'http://localhost:8082'],
    ['HTTPS://Brook.Example.com', 'https://brook.example.com'],
    ['https://lb.example.com:443/brook/', 'https://lb.example.com/brook'],
    ['  localhost:8082  ', 'http://localhost:8082'],
    ['[::1]:8082', 'http://[::1]:8082'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeBootstrapServer(input)).toBe(expected);
  });

  it.each(['', '   ', 'ftp://host:21', 'http://host:8082/?x=1', 'http://host:99999', 'localhost:port'])(
    'rejects %j as a usage error',
    (input) => {
      expect(() => normalizeBootstrapServer(input)).toThrow(UsageError);
    },
  );
});

describe('parseBootstrapServers', () => {
  it('splits a Kafka-style list and normalises each entry', () => {
    expect(parseBootstrapServers('a:1, b:2,,https://c')).toEqual(['http://a:1', 'http://b:2', 'https://c']);
  });

  it('rejects a list without servers', () => {
    expect(() => parseBootstrapServers(' , ')).toThrow(UsageError);
  });
});
