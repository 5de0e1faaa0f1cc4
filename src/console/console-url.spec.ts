import { describe, expect, it } from 'vitest';
import { rewriteConsoleUrl } from './console-url.js';

describe('rewriteConsoleUrl', () => {
  it('turns the page address with a slash into the route, keeping the query', () => {
    expect(rewriteConsoleUrl('/console/')).toBe('/console');
    expect(rewriteConsoleUrl('/console/?theme=dark')).toBe('/console?theme=dark');
  });

  it('leaves every other URL alone', () => {
    for (const url of ['/console', '/console/assets/index-1.js', '/consoles/', '/v3/clusters/', '/', '/console//'])
      expect(rewriteConsoleUrl(url)).toBe(url);
  });
});
