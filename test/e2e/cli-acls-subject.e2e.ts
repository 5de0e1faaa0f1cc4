// `brook acls --subject` with the built CLI against a real broker: it adds, lists and removes SUBJECT bindings
// (the schema registry's resource), literal and prefixed, with kafka-acls.sh's flags, and refuses an operation a
// subject does not have.
import { describe, expect, it } from 'vitest';
import { brokerForSuite } from './support/broker-process.js';
import { brook, FAST_GROUPS } from './support/brook-cli.js';

const suite = brokerForSuite({ env: FAST_GROUPS });
const run = (args: string[], input?: string) =>
  brook([...args, '--bootstrap-server', suite.url], { input, env: FAST_GROUPS });

describe('brook acls --subject', () => {
  it('adds, lists and removes SUBJECT bindings, literal and prefixed', async () => {
    const added = await run([
      'acls',
      '--add',
      '--allow-principal',
      'User:alice',
      '--operation',
      'Read',
      '--operation',
      'Write',
      '--subject',
      'orders-',
      '--resource-pattern-type',
      'prefixed',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const pattern = 'ResourcePattern(resourceType=SUBJECT, name=orders-, patternType=PREFIXED)';
    expect(added.stdout).toContain(`Adding ACLs for resource \`${pattern}\`: \n`);
    expect(added.stdout).toContain('\t(principal=User:alice, host=*, operation=WRITE, permissionType=ALLOW)');
    expect(
      (
        await run([
          'acls',
          '--add',
          '--allow-principal',
          'User:bob',
          '--operation',
          'Describe',
          '--subject',
          'docs-value',
        ])
      ).code,
    ).toBe(0);
    const all = await run(['acls', '--list']);
    expect(all.stdout).toContain(`Current ACLs for resource \`${pattern}\`: \n`);
    expect(all.stdout).toContain('ResourcePattern(resourceType=SUBJECT, name=docs-value, patternType=LITERAL)');
    const one = JSON.parse((await run(['acls', '--list', '--subject', 'docs-value', '--output', 'json'])).stdout);
    expect(one).toEqual([
      {
        resource_type: 'SUBJECT',
        resource_name: 'docs-value',
        pattern_type: 'LITERAL',
        principal: 'User:bob',
        host: '*',
        operation: 'DESCRIBE',
        permission: 'ALLOW',
      },
    ]);
    const refused = await run([
      'acls',
      '--add',
      '--allow-principal',
      'User:bob',
      '--operation',
      'Create',
      '--subject',
      'x',
    ]);
    expect(refused.code).toBe(1);
    const removed = await run(['acls', '--remove', '--subject', 'orders-', '--resource-pattern-type', 'prefixed']);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await run(['acls', '--list'])).stdout).not.toContain('name=orders-');
  });
});
