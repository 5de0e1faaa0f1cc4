// The dependency linter (`npm run lint:deps`, .dependency-cruiser.mjs) bites: run as CI runs it, on a small tree
// laid out as src/ (test/fixtures/dependency-layers/) with a leaf importing an edge (a value and a type), the core
// importing the application, the application importing an edge, a cycle in the core, an edge importing another
// edge and a tool importing the application, it reports exactly those and fails; on a tree whose imports all point
// the way the rules allow (test/fixtures/dependency-layers-clean/) it reports nothing and passes.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/dependency-layers/', import.meta.url));
const CLEAN_FIXTURE = fileURLToPath(new URL('../fixtures/dependency-layers-clean/', import.meta.url));
const CLI = `${ROOT}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`;

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: Array<{ name: string }>;
}

/** The linter on a fixture, as `npm run lint:deps` runs it on src/ (its exit status, its text), or as JSON. */
function lint(outputType: 'err' | 'json', fixture = FIXTURE) {
  return spawnSync(
    process.execPath,
    [CLI, 'src', '--config', `${ROOT}.dependency-cruiser.mjs`, '--output-type', outputType],
    {
      cwd: fixture,
      encoding: 'utf8',
    },
  );
}

describe('the layer rules', () => {
  it('report every upward import, cycle and edge-to-edge import of the fixture, and fail', () => {
    const run = lint('err');
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('7 dependency violations (7 errors, 0 warnings)');
    const violations = violationsOf(FIXTURE);
    const found = violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();
    expect(found).toEqual([
      'application-imports-upward: src/security/authorizer.ts -> src/http/route.ts',
      'core-imports-upward: src/replication/replica.ts -> src/application/produce.ts',
      'edge-imports-edge: src/ws/socket.ts -> src/http/route.ts',
      'leaf-imports-upward: src/common/clock.ts -> src/http/route.ts',
      'leaf-imports-upward: src/config/settings.ts -> src/ws/socket.ts',
      'no-cycle: src/topic/metadata.ts -> src/topic/partitions.ts',
      'tool-imports-broker-upper-layers: src/cli/command.ts -> src/application/produce.ts',
    ]);
    const cycle = violations.find(({ rule }) => rule.name === 'no-cycle')?.cycle?.map(({ name }) => name);
    expect(cycle).toEqual(['src/topic/partitions.ts', 'src/topic/metadata.ts']);
  });

  it('pass a tree whose imports all point the way the layers allow', () => {
    const run = lint('err', CLEAN_FIXTURE);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // nothing reported, and the clean tree is linted at all: every one of its modules is in the linter's graph
    const { summary, modules } = JSON.parse(lint('json', CLEAN_FIXTURE).stdout) as {
      summary: { violations: Violation[] };
      modules: Array<{ source: string }>;
    };
    expect(summary.violations).toEqual([]);
    expect(modules.map(({ source }) => source).sort()).toEqual([
      'src/application/produce.ts',
      'src/cli/command.ts',
      'src/common/clock.ts',
      'src/config/settings.ts',
      'src/http/path.ts',
      'src/http/route.ts',
      'src/main.ts',
      'src/replication/replica.ts',
      'src/topic/partitions.ts',
    ]);
  });
});

function violationsOf(fixture: string): Violation[] {
  return (JSON.parse(lint('json', fixture).stdout) as { summary: { violations: Violation[] } }).summary.violations;
}
