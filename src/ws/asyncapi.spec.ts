// asyncapi.yaml documents exactly the ops the gateway accepts and sends (CLIENT_OPS and SERVER_OPS), each message's
// `op` is pinned to its name, and every frame the e2e tests rely on has a message.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLIENT_OPS, SERVER_OPS } from './ws-protocol.js';

interface Message {
  name: string;
  payload: { properties: { op: { const: string } }; required: string[] };
}

const spec = parse(readFileSync(fileURLToPath(new URL('../../asyncapi.yaml', import.meta.url)), 'utf8')) as {
  asyncapi: string;
  channels: Record<string, Record<string, { message: { oneOf: Array<{ $ref: string }> } }>>;
  components: { messages: Record<string, Message> };
};

function ops(direction: 'publish' | 'subscribe'): string[] {
  return spec.channels['/v3/ws'][direction].message.oneOf.map((ref) => {
    const name = ref.$ref.replace('#/components/messages/', '');
    const message = spec.components.messages[name];
    expect(message, ref.$ref).toBeDefined();
    expect(message.name).toBe(name);
    expect(message.payload.properties.op.const).toBe(name);
    expect(message.payload.required).toContain('op');
    return name;
  });
}

describe('asyncapi.yaml', () => {
  it('is AsyncAPI 2.6 with the one channel /v3/ws', () => {
    expect(spec.asyncapi).toBe('2.6.0');
    expect(Object.keys(spec.channels)).toEqual(['/v3/ws']);
  });

  it('lists exactly the ops the gateway accepts from clients', () => {
    expect(ops('publish').sort()).toEqual([...CLIENT_OPS].sort());
  });

  it('lists exactly the ops the gateway sends', () => {
    expect(ops('subscribe').sort()).toEqual([...SERVER_OPS].sort());
  });

  it('has no message that no direction uses', () => {
    expect(Object.keys(spec.components.messages).sort()).toEqual([...CLIENT_OPS, ...SERVER_OPS].sort());
  });
});
