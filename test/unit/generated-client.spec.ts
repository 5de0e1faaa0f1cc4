// The CLI's typed client is generated from openapi.yaml and committed; this test regenerates it into a temp file
// and fails when the committed copy differs (run `npm run generate:client` after changing openapi.yaml).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMMITTED = join(ROOT, 'src/cli/generated/brook-api.ts');

describe('generated client', () => {
  it('is up to date with openapi.yaml', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brook-client-'));
    try {
      const fresh = join(dir, 'brook-api.ts');
      execFileSync(process.execPath, [join(ROOT, 'scripts/generate-client.mjs'), '--out', fresh], { cwd: ROOT });
      expect(readFileSync(COMMITTED, 'utf8'), 'run `npm run generate:client` and commit the result').toBe(
        readFileSync(fresh, 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
