// The request context is entered for every route handler when something reads it (JSON logs, a cluster's peer
// calls), and not at all otherwise: then nothing reads it, and Node's async hooks stay off.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { currentRequestId } from '../common/request-context.js';
import { registerRequestContext, requestContextNeeded, requestIdOptions } from './request-id.js';

async function idsSeenByHandler(needed: boolean): Promise<Array<string | undefined>> {
  const app = Fastify(requestIdOptions);
  registerRequestContext(app, needed);
  app.post('/work', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    await Promise.resolve();
    return { seen: currentRequestId() ?? null };
  });
  await app.ready();
  const seen = await Promise.all(
    ['id-1', 'id-2'].map(async (id) => {
      const answer = await app.inject({ method: 'POST', url: '/work', headers: { 'x-request-id': id } });
      return (answer.json() as { seen: string | null }).seen ?? undefined;
    }),
  );
  await app.close();
  return seen;
}

describe('request context', () => {
  it('is needed with JSON logs or peers (a cluster), not for a single broker logging text', () => {
    expect(requestContextNeeded({ logFormat: 'json', redisUrl: null })).toBe(true);
    expect(requestContextNeeded({ logFormat: 'text', redisUrl: 'redis://127.0.0.1:6379' })).toBe(true);
    expect(requestContextNeeded({ logFormat: 'text', redisUrl: null })).toBe(false);
  });

  it('carries each request id through the handler and its awaits when needed, none when not', async () => {
    expect(await idsSeenByHandler(false)).toEqual([undefined, undefined]);
    expect(await idsSeenByHandler(true)).toEqual(['id-1', 'id-2']);
  });
});
