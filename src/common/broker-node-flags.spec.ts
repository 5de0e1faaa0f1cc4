import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BROKER_NODE_FLAGS, brokerNodeArgs } from './broker-node-flags.js';

const repoFile = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('BROKER_NODE_FLAGS', () => {
  it('come before the script in the arguments after node', () => {
    expect(brokerNodeArgs('/app/dist/main.js')).toEqual([...BROKER_NODE_FLAGS, '/app/dist/main.js']);
    expect(brokerNodeArgs('/old/dist/main.js', [])).toEqual(['/old/dist/main.js']);
  });

  it('are the ones `npm start`, `npm run start:prod` and the Dockerfile write out', () => {
    const commandLine = ['node', ...BROKER_NODE_FLAGS, 'dist/main.js'];
    expect(repoFile('scripts/start.sh')).toContain(`\nexec ${commandLine.join(' ')} "$@"\n`);
    const scripts = (JSON.parse(repoFile('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start:prod']).toBe(commandLine.join(' '));
    expect(repoFile('Dockerfile')).toContain(`\nCMD ${JSON.stringify(commandLine).replaceAll('","', '", "')}\n`);
  });
});
