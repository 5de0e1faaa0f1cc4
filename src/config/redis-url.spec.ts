import { describe, expect, it } from 'vitest';

import { parseRedisUrl, redact, RedisUrlError } from './redis-url.js';

describe('parseRedisUrl', () => {
  it('reads a plain Redis URL with defaults', () => {
    expect(parseRedisUrl('redis://localhost')).toEqual({
      kind: 'standalone',
      options: { host: 'localhost', port: 6379, db: 0 },
      display: 'redis://localhost',
    });
    const parsed = parseRedisUrl('rediss://user:p%40ss@redis.example:6380/3');
    expect(parsed.options).toEqual({
      username: 'user',
      password: 'p@ss',
      host: 'redis.example',
      port: 6380,
      db: 3,
      tls: {},
    });
    expect(parsed.display).toBe('rediss://user:***@redis.example:6380/3');
  });

  it('reads a Sentinel URL: sentinels, master name, database', () => {
    expect(parseRedisUrl('redis+sentinel://:pw@s1:26380,s2,[::1]:26381/mymaster/2')).toEqual({
      kind: 'sentinel',
      options: {
        password: 'pw',
        sentinelPassword: 'pw',
        sentinels: [
          { host: 's1', port: 26380 },
          { host: 's2', port: 26379 },
          { host: '::1', port: 26381 },
        ],
        name: 'mymaster',
        db: 2,
      },
      display: 'redis+sentinel://:***@s1:26380,s2,[::1]:26381/mymaster/2',
    });
  });

  it('refuses what it cannot read, with a message that shows no password', () => {
    for (const url of [
      'http://localhost',
      'redis+sentinel://s1:26379',
      'redis://a,b/0',
      'redis://host:99999',
      'redis://host/x',
    ]) {
      expect(() => parseRedisUrl(url)).toThrow(RedisUrlError);
    }
    expect(() => parseRedisUrl('redis://:secret@host:0')).toThrow(/redis:\/\/:\*\*\*@host:0/);
  });

  it('redacts passwords only', () => {
    expect(redact('redis://h:1')).toBe('redis://h:1');
    expect(redact('redis://u:pw@h:1')).toBe('redis://u:***@h:1');
  });
});
