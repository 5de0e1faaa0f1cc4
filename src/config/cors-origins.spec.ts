import { describe, expect, it } from 'vitest';
import { ConfigError } from './env-values.js';
import { corsOriginsFromEnv, originAllowed, originGranted } from './cors-origins.js';

const parse = (value: string | undefined) => corsOriginsFromEnv({ BROOK_CORS_ALLOWED_ORIGINS: value });

describe('BROOK_CORS_ALLOWED_ORIGINS', () => {
  it('is off when unset or empty, * for every origin, else the listed origins normalised', () => {
    expect(parse(undefined)).toBeNull();
    expect(parse(' ')).toBeNull();
    expect(parse('*')).toBe('*');
    expect(parse('https://app.example.com, http://localhost:3000,HTTPS://APP.example.com:443')).toEqual(
      new Set(['https://app.example.com', 'http://localhost:3000']),
    );
  });

  it('refuses what is not an origin, naming the setting', () => {
    for (const bad of [
      'app.example.com',
      'https://a.example/path',
      'https://a.example?x=1',
      'https://u@a.example',
      '*,https://a.example',
    ]) {
      expect(() => parse(bad), bad).toThrow(ConfigError);
      expect(() => parse(bad), bad).toThrow(/BROOK_CORS_ALLOWED_ORIGINS/);
    }
  });
});

describe('the origin check', () => {
  const listed = parse('https://app.example.com');

  it('lets requests without an Origin through, and every origin when CORS is off or *', () => {
    expect(originAllowed(listed, undefined)).toBe(true);
    expect(originAllowed(null, 'https://evil.example')).toBe(true);
    expect(originAllowed('*', 'https://evil.example')).toBe(true);
    expect(originAllowed(listed, 'https://app.example.com')).toBe(true);
    expect(originAllowed(listed, 'https://evil.example')).toBe(false);
    expect(originAllowed(listed, 'https://app.example.com.evil.example')).toBe(false);
  });

  it('grants CORS only to a listed origin (any with *), never with CORS off or without an Origin', () => {
    expect(originGranted(listed, 'https://app.example.com')).toBe(true);
    expect(originGranted(listed, 'https://evil.example')).toBe(false);
    expect(originGranted('*', 'https://evil.example')).toBe(true);
    expect(originGranted(null, 'https://app.example.com')).toBe(false);
    expect(originGranted('*', undefined)).toBe(false);
  });
});
