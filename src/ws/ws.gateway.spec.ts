// The gateway as Nest runs it: Nest's testing module with the real gateway, adapter, rights guard (over the real
// Authorizer and a list of ACLs), DTO pipes and exception filter, on a Fastify server and a port of its own, and a
// `ws` client. Only the sessions are stand-ins that record what the handlers gave them.
import { Test } from '@nestjs/testing';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BrookError, errors } from '../common/brook-error.js';
import { BROKER_CONFIG } from '../config/broker-config.provider.js';
import type { AclBinding } from '../security/acl.js';
import { AclStore } from '../security/acl-store.service.js';
import type { AuditEvent } from '../security/audit-log.js';
import { AuditLog } from '../security/audit-log.js';
import { AuthenticationFailure, Authenticator, type Credentials } from '../security/authenticator.service.js';
import { Authorizer } from '../security/authorizer.service.js';
import { BrookWsAdapter, type Turnaway } from './ws.adapter.js';
import { WsGateway } from './ws.gateway.js';
import {
  errorFrame,
  type FrameId,
  type ProduceFrame,
  type RoutedMessage,
  type ScannedProduceFrame,
} from './ws-protocol.js';
import { routeMessage } from './produce-frame-scanner.js';
import { WsSessions } from './ws-sessions.js';
import { WsUpgrade } from './ws-upgrade.js';

const allow = (resource_type: 'TOPIC' | 'GROUP', resource_name: string, operation: 'READ' | 'WRITE'): AclBinding => ({
  resource_type,
  resource_name,
  pattern_type: 'LITERAL',
  principal: 'User:alice',
  host: '*',
  operation,
  permission: 'ALLOW',
});
const acls = [allow('TOPIC', 'open', 'READ'), allow('TOPIC', 'open', 'WRITE'), allow('GROUP', 'team', 'READ')];

/** A session that records the frames its handlers give it and answers the way the real one words its answers. */
class RecordedSession {
  readonly identity = { principal: 'User:alice', host: '127.0.0.1' };
  readonly calls: Array<{ op: string; frame: unknown }> = [];
  readonly subscriptions = {
    subscribe: async (frame: { id: FrameId }) => {
      this.calls.push({ op: 'subscribe', frame });
      this.send({ op: 'subscribed', id: frame.id });
      await Promise.resolve();
      if (frame.id === 'later') throw errors.topicNotFound('gone');
    },
    credit: (frame: { n: number }) => {
      this.calls.push({ op: 'credit', frame });
      if (frame.n === 13) throw errors.invalidRequest('No subscription 13 on this socket.');
    },
    commit: async (frame: unknown) => {
      this.calls.push({ op: 'commit', frame });
      throw errors.fencedMember('not the owner');
    },
    unsubscribe: (frame: unknown) => this.calls.push({ op: 'unsubscribe', frame }),
    groupOf: (id: FrameId) => (id === 'member' ? 'team' : null),
  };

  constructor(private readonly socket: WebSocket) {}

  async produce(frame: ProduceFrame | ScannedProduceFrame): Promise<void> {
    this.calls.push({ op: 'produce', frame });
    await Promise.resolve();
    const value = 'laidOut' in frame ? frame.laidOut.value(0) : frame.records[0].value;
    if (frame.topic === 'open' && value?.toString() === 'bug') throw new Error('a bug');
    this.send({ op: 'ack', id: frame.id });
  }

  sendError(error: BrookError, id?: FrameId): void {
    this.socket.send(errorFrame(error, id));
  }

  private send(frame: object): void {
    this.socket.send(JSON.stringify(frame));
  }
}

class RecordedSessions {
  readonly sessions: RecordedSession[] = [];
  readonly charged: Array<{ bytes: number; event: string }> = [];
  turnawayNext: Turnaway | null = null;
  private readonly bySocket = new Map<WebSocket, RecordedSession>();

  turnaway = () => this.turnawayNext;
  takesFrames = (socket: WebSocket) => this.bySocket.has(socket);
  frameRead = (_socket: WebSocket, bytes: number, event: RoutedMessage['event']) => this.charged.push({ bytes, event });
  open = (socket: WebSocket) => {
    const session = new RecordedSession(socket);
    this.bySocket.set(socket, session);
    this.sessions.push(session);
  };
  forget = (socket: WebSocket) => this.bySocket.delete(socket);
  of = (socket: WebSocket) => this.bySocket.get(socket)!;
  find = (socket: WebSocket) => this.bySocket.get(socket);
}

const sessions = new RecordedSessions();
const authenticator = {
  identify: async ({ authorization }: Credentials) => {
    if (authorization === 'Bearer wrong') throw new AuthenticationFailure('Invalid API key.', 'User:mallory');
    return { principal: 'User:alice', credential: { kind: 'anonymous' } };
  },
  certificateCommonNameOf: () => null,
  certificateNotAfterOf: () => null,
};
const audit: AuditEvent[] = [];
let app: NestFastifyApplication;
let url: string;

beforeAll(async () => {
  const config = {
    security: { authorizerEnable: true, superUsers: [] },
    ws: { creditsMax: 100, assignPartitionsMax: 4 },
  };
  const moduleRef = await Test.createTestingModule({
    providers: [
      WsGateway,
      Authorizer,
      WsUpgrade,
      { provide: Authenticator, useValue: authenticator },
      { provide: WsSessions, useValue: sessions },
      { provide: BROKER_CONFIG, useValue: config },
      { provide: AclStore, useValue: { version: 0, all: () => acls, onChange: () => undefined } },
      { provide: AuditLog, useValue: { write: (event: AuditEvent) => audit.push(event) } },
    ],
  }).compile();
  app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  app.useWebSocketAdapter(
    new BrookWsAdapter(app, {
      frameBytesMax: 1_048_576,
      messageParser: (data, isBinary) => routeMessage(data, isBinary, { produceRecordsMax: 10 }, 1234),
      gate: app.get(WsUpgrade),
      intake: sessions,
    }),
  );
  await app.listen(0, '127.0.0.1');
  url = `ws://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
});
beforeEach(() => {
  sessions.turnawayNext = null;
  audit.length = 0;
});

/** A client that keeps every frame it receives. */
async function connect(path = '/v3/ws', headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${url}${path}`, { headers });
  const frames: Array<Record<string, unknown>> = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const session = sessions.sessions.at(-1)!;
  const received = async (count: number) => {
    for (let waited = 0; frames.length < count; waited += 5) {
      if (waited > 5_000) throw new Error(`got ${JSON.stringify(frames)}, wanted ${count} frames`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return frames.slice(0, count);
  };
  return { socket, frames, session, received, send: (frame: unknown) => socket.send(JSON.stringify(frame)) };
}

describe('WsGateway', () => {
  it('hands each op its checked frame, in the order the frames came', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', id: 's', assign: [{ topic: 'open', partition: 0 }], credits: 5 });
    client.socket.send('not json');
    client.send({ op: 'credit', id: 's', n: 3 });
    client.send({ op: 'produce', id: 'p', topic: 'open', records: [{ value: 'v' }] });
    client.send({ op: 'unsubscribe', id: 's' });
    expect(await client.received(3)).toEqual([
      { op: 'subscribed', id: 's' },
      { op: 'error', error_code: 40002, message: expect.stringMatching(/^Frame is not valid JSON/) },
      { op: 'ack', id: 'p' },
    ]);
    expect(client.session.calls).toEqual([
      {
        op: 'subscribe',
        frame: expect.objectContaining({
          id: 's',
          assign: [{ topic: 'open', partition: 0, offset: null }],
          credits: 5,
        }),
      },
      { op: 'credit', frame: { op: 'credit', id: 's', n: 3 } },
      { op: 'produce', frame: expect.objectContaining({ id: 'p', topic: 'open', acks: 'all' }) },
      { op: 'unsubscribe', frame: { op: 'unsubscribe', id: 's' } },
    ]);
    const text = (frame: unknown) => Buffer.byteLength(JSON.stringify(frame));
    expect(sessions.charged.slice(-5).map(({ event }) => event)).toEqual([
      'subscribe',
      'refused frame',
      'credit',
      'produce',
      'unsubscribe',
    ]);
    expect(sessions.charged.at(-1)!.bytes).toBe(text({ op: 'unsubscribe', id: 's' }));
    client.socket.close();
  });

  it('answers every refusal with one error frame: router, pipe, session, later failures, bugs', async () => {
    const client = await connect();
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    client.send({ op: 'credit', id: 'c', n: 0 });
    client.send({ op: 'credit', id: 'c', n: 13 });
    client.send({ op: 'subscribe', id: 'later', assign: [{ topic: 'open', partition: 0 }] });
    client.send({ op: 'commit', id: 'member', offsets: [{ topic: 'open', partition: 0, offset: 1 }] });
    client.send({ op: 'produce', id: 'b', topic: 'open', records: [{ value: 'bug' }] });
    client.send({ op: 'dance', id: ['not an id'] });
    const frames = await client.received(8);
    expect(frames).toEqual([
      { op: 'error', error_code: 40002, message: 'Binary frames are not accepted; send JSON text frames.' },
      { op: 'error', id: 'c', error_code: 40002, message: 'n must be an integer from 1 to 100, got 0.' },
      { op: 'error', id: 'c', error_code: 40002, message: 'No subscription 13 on this socket.' },
      { op: 'subscribed', id: 'later' },
      { op: 'error', id: 'later', error_code: 40401, message: 'Topic gone not found.' },
      { op: 'error', id: 'member', error_code: 40903, message: 'not the owner' },
      { op: 'error', id: 'b', error_code: 50002, message: 'a bug' },
      { op: 'error', error_code: 40002, message: 'id must be a string of 1 to 80 characters or an integer.' },
    ]);
    expect(sessions.charged.filter(({ event }) => event === 'refused frame').length).toBeGreaterThan(0);
    client.socket.close();
  });

  it('answers frames nested past the call stack (within the frame bound) instead of throwing', async () => {
    const client = await connect();
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    client.socket.send(`{"op":"credit","id":"d","n":${deep}}`);
    client.socket.send(`{"op":"commit","id":"e","offsets":[{"topic":"open","partition":${deep},"offset":0}]}`);
    expect(await client.received(2)).toEqual([
      {
        op: 'error',
        id: 'd',
        error_code: 40002,
        message: expect.stringMatching(/^n must be an integer from 1 to 100/),
      },
      { op: 'error', id: 'e', error_code: 40002, message: expect.stringMatching(/^offsets\[0\]\.partition must be/) },
    ]);
    client.socket.close();
  });

  it("checks a frame's rights before its fields, with an audit line for each refusal", async () => {
    const client = await connect();
    client.send({ op: 'subscribe', id: 1, assign: [{ topic: 'secret', partition: 0 }], credits: -1 });
    client.send({ op: 'subscribe', id: 2, assign: [{ topic: 'open', partition: 0 }], credits: -1 });
    client.send({ op: 'produce', id: 3, topic: 'secret', records: [{ value: 'v' }] });
    client.send({ op: 'commit', id: 'member', offsets: [{ topic: 'secret', partition: 0, offset: 0 }] });
    client.send({ op: 'commit', id: 'other', offsets: [{ topic: 'open', partition: 0, offset: 0 }] });
    expect(await client.received(5)).toEqual([
      { op: 'error', id: 1, error_code: 40301, message: "User:alice is not authorized to READ topic 'secret'." },
      { op: 'error', id: 2, error_code: 40002, message: 'credits must be an integer from 0 to 100, got -1.' },
      { op: 'error', id: 3, error_code: 40301, message: "User:alice is not authorized to WRITE topic 'secret'." },
      { op: 'error', id: 'member', error_code: 40301, message: "User:alice is not authorized to READ topic 'secret'." },
      { op: 'error', id: 'other', error_code: 40903, message: 'not the owner' },
    ]);
    expect(audit.map(({ frame_op, operation, resource_name }) => [frame_op, operation, resource_name])).toEqual([
      ['subscribe', 'READ', 'secret'],
      ['produce', 'WRITE', 'secret'],
      ['commit', 'READ', 'secret'],
    ]);
    expect(audit[0]).toMatchObject({ event: 'authorization.denied', principal: 'User:alice', route: '/v3/ws' });
    client.socket.close();
  });

  it('decides at the upgrade: the path, the credentials (401 with an audit line), the socket bound', async () => {
    const status = (path: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`${url}${path}`, { headers });
        socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.once('open', () => reject(new Error(`${path} opened`)));
        socket.once('error', () => undefined);
      });
    expect(await status('/v3/other')).toBe(404);
    expect(await status('/v3/ws', { authorization: 'Bearer wrong' })).toBe(401);
    expect(audit).toEqual([
      expect.objectContaining({
        event: 'authentication.failed',
        principal: 'User:mallory',
        route: '/v3/ws',
        reason: 'Invalid API key.',
      }),
    ]);
    const opened = sessions.sessions.length;
    sessions.turnawayNext = { code: 1008, reason: 'too many WebSockets on this broker (at most 1)' };
    const extra = new WebSocket(`${url}/v3/ws`);
    const closed = await new Promise<[number, string]>((resolve) =>
      extra.once('close', (code, reason) => resolve([code, String(reason)])),
    );
    expect(closed).toEqual([1008, 'too many WebSockets on this broker (at most 1)']);
    expect(sessions.sessions.length).toBe(opened);
  });
});
