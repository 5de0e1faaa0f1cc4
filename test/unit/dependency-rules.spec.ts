// The dependency linter (`npm run lint:deps`, .dependency-cruiser.mjs) bites: run as CI runs it, on a small tree
// laid out as src/ (test/fixtures/dependency-layers/) with a leaf importing an edge (a value and a type), a cycle
// in the core, an edge importing another edge and a tool importing the application, it reports exactly those and
// fails; the imports that point downwards pass.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/dependency-layers/', import.meta.url));
const CLI = `${ROOT}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`;

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: Array<{ name: string }>;
}

/** The linter on the fixture, as `npm run lint:deps` runs it on src/ (its exit status, its text), or as JSON. */
function lint(outputType: 'err' | 'json') {
  return spawnSync(
    process.execPath,
    [CLI, 'src', '--config', `${ROOT}.dependency-cruiser.mjs`, '--output-type', outputType],
    {
      cwd: FIXTURE,
      encoding: 'utf8',
    },
  );
}

describe('the layer rules', () => {
  it('report every upward import, cycle and edge-to-edge import of the fixture, and fail', () => {
    const run = lint('err');
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('5 dependency violations (5 errors, 0 warnings)');
    const { violations } = (JSON.parse(lint('json').stdout) as { summary: { violations: Violation[] } }).summary;
    const found = violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();
    expect(found).toEqual([
      'edge-imports-edge: src/ws/socket.ts -> src/http/route.ts',
      'leaf-imports-upward: src/common/clock.ts -> src/http/route.ts',
      'leaf-imports-upward: src/config/settings.ts -> src/ws/socket.ts',
      'no-cycle: src/topic/metadata.ts -> src/topic/partitions.ts',
      'tool-imports-broker-upper-layers: src/cli/command.ts -> src/application/produce.ts',
    ]);
    const cycle = violations.find(({ rule }) => rule.name === 'no-cycle')?.cycle?.map(({ name }) => name);
    expect(cycle).toEqual(['src/topic/partitions.ts', 'src/topic/metadata.ts']);
  });
});
