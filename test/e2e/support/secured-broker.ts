// A broker as an independent security test sees it: authentication (Basic and Bearer) and the authorizer on, a
// users file with the super user admin, alice (READ and DESCRIBE on topic `a`, READ on group `ga`) and an API key
// of bob's; helpers to call it as one of them, change ACLs and quotas, read its audit lines, and read an SSE stream
// event by event. The security suites (security-*.e2e.ts) share it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { addApiKey, addUser } from '../../../src/config/users-file.js';
import { BrokerProcess } from './broker-process.js';
import { call, type ApiResponse, type CallOptions } from './http.js';

export const C = '/v3/clusters/{cluster_id}';
export const V2 = 'application/vnd.kafka.v2+json';
export const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
export const ADMIN = basic('admin', 'admin-secret');
export const ALICE = basic('alice', 'alice-secret');

export type Who = Record<string, string>;

export const aliceAcl = (resource_type: string, resource_name: string, operation: string) => ({
  resource_type,
  resource_name,
  pattern_type: 'LITERAL',
  principal: 'User:alice',
  host: '*',
  operation,
  permission: 'ALLOW',
});

export interface SseEvent {
  event?: string;
  id?: string;
  data?: string;
}

export class SecuredBroker {
  cid = '';
  bobKey = '';

  private constructor(
    readonly dir: string,
    readonly usersFile: string,
    public broker: BrokerProcess | null,
  ) {}

  /** Writes the users file and starts a broker on it (or, with `startBroker: false`, only the file). */
  static async create(env: Record<string, string> = {}, startBroker = true): Promise<SecuredBroker> {
    const dir = mkdtempSync(join(tmpdir(), 'brook-security-'));
    const usersFile = join(dir, 'users');
    await addUser(usersFile, 'admin', 'admin-secret');
    await addUser(usersFile, 'alice', 'alice-secret');
    const secured = new SecuredBroker(dir, usersFile, null);
    secured.bobKey = addApiKey(usersFile, 'bob-ci', 'bob');
    if (startBroker) {
      secured.broker = await BrokerProcess.start({
        logLevel: 'warn',
        env: { ...SecuredBroker.env(usersFile), ...env },
      });
      await secured.setUp(secured.broker.url);
    }
    return secured;
  }

  static env(usersFile: string): Record<string, string> {
    return {
      BROOK_AUTH: 'basic,bearer',
      BROOK_AUTH_USERS_FILE: usersFile,
      BROOK_AUTHORIZER_ENABLE: 'true',
      BROOK_SUPER_USERS: 'User:admin',
    };
  }

  /** Topic `a` with alice's READ and DESCRIBE, her READ on group `ga`. */
  async setUp(url: string): Promise<void> {
    this.cid = (await call(url, 'GET', '/v3/clusters', { headers: ADMIN })).body.data[0].cluster_id;
    await this.createTopic('a', url);
    for (const acl of [
      aliceAcl('TOPIC', 'a', 'READ'),
      aliceAcl('TOPIC', 'a', 'DESCRIBE'),
      aliceAcl('GROUP', 'ga', 'READ'),
    ])
      await this.acl('POST', acl, url);
  }

  get url(): string {
    return this.broker!.url;
  }

  as(who: Who, method: string, path: string, options: CallOptions = {}, url = this.url): Promise<ApiResponse> {
    return call(url, method, path.replace('{c}', this.cid), { ...options, headers: { ...options.headers, ...who } });
  }

  async createTopic(name: string, url = this.url): Promise<void> {
    const created = await this.as(
      ADMIN,
      'POST',
      '/v3/clusters/{c}/topics',
      {
        body: { topic_name: name, partitions_count: 1 },
        spec: `${C}/topics`,
      },
      url,
    );
    expect(created.status, created.text).toBe(201);
  }

  async acl(method: 'POST' | 'DELETE', fields: Record<string, string>, url = this.url): Promise<void> {
    const path = `/v3/clusters/${this.cid}/acls`;
    const response =
      method === 'POST'
        ? await this.as(ADMIN, 'POST', path, { body: fields, spec: `${C}/acls` }, url)
        : await this.as(ADMIN, 'DELETE', `${path}?${new URLSearchParams(fields)}`, { spec: `${C}/acls` }, url);
    expect(response.status, response.text).toBe(method === 'POST' ? 201 : 200);
  }

  async quota(entity: string, values: Record<string, number | null>): Promise<void> {
    const response = await this.as(ADMIN, 'PUT', `/v3/clusters/{c}/client-quotas/${encodeURIComponent(entity)}`, {
      body: values,
      spec: `${C}/client-quotas/{entity}`,
    });
    expect(response.status, response.text).toBe(200);
  }

  async produce(topic: string, values: string[], who: Who = ADMIN): Promise<void> {
    const response = await this.as(who, 'POST', `/topics/${topic}`, {
      body: { records: values.map((value) => ({ value })) },
      contentType: 'application/vnd.kafka.json.v2+json',
    });
    expect(response.status, response.text).toBe(200);
    for (const offset of response.body.offsets) expect(offset.error_code ?? null, response.text).toBeNull();
  }

  /** The audit lines written so far (JSON lines with "audit": true on the broker's stdout). */
  auditLines(broker: BrokerProcess = this.broker!): Array<Record<string, unknown>> {
    return broker.stdout
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes('"audit":true'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Opens an SSE stream; events arrive in `events` until it ends (`ended` resolves). */
  async openStream(who: Who, topic: string, query = 'from=earliest&format=string', url = this.url): Promise<SseStream> {
    const response = await fetch(`${url}/v3/clusters/${this.cid}/topics/${topic}/records:stream?${query}`, {
      headers: who,
    });
    expect(response.status).toBe(200);
    return new SseStream(response);
  }

  async stop(): Promise<void> {
    await this.broker?.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Bytes and events of an open SSE stream as they arrive. */
export class SseStream {
  readonly events: SseEvent[] = [];
  /** Bytes of `data:` lines of record events received, and when each arrived. */
  readonly arrivals: Array<{ atMs: number; bytes: number }> = [];
  readonly ended: Promise<void>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(response: Response) {
    this.reader = response.body!.getReader();
    this.ended = this.pump();
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await this.reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const text = buffer.slice(0, end + 2);
        buffer = buffer.slice(end + 2);
        if (text.startsWith(':')) continue;
        const event: SseEvent = {};
        for (const line of text.trim().split('\n')) {
          const colon = line.indexOf(':');
          (event as Record<string, string>)[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
        }
        this.events.push(event);
        if (event.event === undefined) this.arrivals.push({ atMs: Date.now(), bytes: Buffer.byteLength(text) });
      }
    }
  }

  records(): SseEvent[] {
    return this.events.filter((event) => event.event === undefined);
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

/** Polls `condition` every 20 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** The rate (units per second) of `arrivals` from the first at or after `fromMs` over `windowMs`. */
export function rateOver(arrivals: Array<{ atMs: number; bytes: number }>, fromMs: number, windowMs: number): number {
  const inWindow = arrivals.filter((a) => a.atMs > fromMs && a.atMs <= fromMs + windowMs);
  return (inWindow.reduce((sum, a) => sum + a.bytes, 0) * 1000) / windowMs;
}
