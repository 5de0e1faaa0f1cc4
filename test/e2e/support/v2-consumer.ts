// A REST Proxy v2 consumer instance as a test uses it: create, subscribe or assign, poll, commit, delete; every
// answer validated against openapi.yaml. Also the records' side: producing string values through v2 binary
// produce, and a binary record's value as text.
import { request } from 'node:http';
import { expect } from 'vitest';
import { call, type ApiResponse } from './http.js';

export const V2 = 'application/vnd.kafka.v2+json';
export const I = '/consumers/{group_name}/instances/{instance}';

/** The embedded format of an instance: its records' media type is application/vnd.kafka.<format>.v2+json. */
export type V2Format = 'binary' | 'json' | 'avro' | 'jsonschema' | 'protobuf';

export interface V2Record {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: unknown;
  value: unknown;
  headers: Array<{ name: string; value: string | null }>;
  key_schema_id?: number | null;
  value_schema_id?: number | null;
}

export class V2Consumer {
  private constructor(
    readonly url: string,
    readonly group: string,
    readonly name: string,
    readonly format: V2Format,
  ) {}

  static async create(
    url: string,
    group: string,
    name: string,
    config: Record<string, unknown> = {},
  ): Promise<V2Consumer> {
    const format = (config.format as V2Format | undefined) ?? 'binary';
    const response = await call(url, 'POST', `/consumers/${group}`, {
      body: { name, format, ...config },
      contentType: V2,
      spec: '/consumers/{group_name}',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ instance_id: name, base_uri: `${url}/consumers/${group}/instances/${name}` });
    return new V2Consumer(url, group, name, format);
  }

  /** A handle on an instance created earlier (in another test). */
  static attach(url: string, group: string, name: string, format: V2Format): V2Consumer {
    return new V2Consumer(url, group, name, format);
  }

  get path(): string {
    return `/consumers/${this.group}/instances/${this.name}`;
  }

  call(method: string, suffix: string, body?: unknown, spec = `${I}${suffix.split('?')[0]}`): Promise<ApiResponse> {
    return call(this.url, method, `${this.path}${suffix}`, {
      body,
      contentType: V2,
      accept: `application/vnd.kafka.${this.format}.v2+json`,
      spec,
    });
  }

  async subscribe(topics: string[]): Promise<void> {
    const response = await this.call('POST', '/subscription', { topics });
    expect(response.status, response.text).toBe(204);
  }

  async assignment(): Promise<string[]> {
    const response = await this.call('GET', '/assignments');
    expect(response.status, response.text).toBe(200);
    return (response.body.partitions as Array<{ topic: string; partition: number }>)
      .map((tp) => `${tp.topic}-${tp.partition}`)
      .sort();
  }

  async poll(timeoutMs = 200, maxBytes?: number): Promise<V2Record[]> {
    const query = `?timeout=${timeoutMs}${maxBytes === undefined ? '' : `&max_bytes=${maxBytes}`}`;
    const response = await this.call('GET', `/records${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body as V2Record[];
  }

  /** Commits explicit offsets: those of the last processed records (the broker stores offset + 1). */
  commit(offsets: Array<{ topic: string; partition: number; offset: number }>): Promise<ApiResponse> {
    return this.call('POST', '/offsets', { offsets });
  }

  /** Commits everything returned so far (empty body). */
  commitReturned(): Promise<ApiResponse> {
    return this.call('POST', '/offsets');
  }

  async committed(partitions: Array<{ topic: string; partition: number }>): Promise<Map<string, number>> {
    const query = partitions.map((tp) => `partition=${tp.topic}:${tp.partition}`).join('&');
    const response = await this.call('GET', `/offsets?${query}`);
    expect(response.status, response.text).toBe(200);
    return new Map(
      (response.body.offsets as Array<{ topic: string; partition: number; offset: number }>).map((o) => [
        `${o.topic}-${o.partition}`,
        o.offset,
      ]),
    );
  }

  async delete(): Promise<void> {
    const response = await this.call('DELETE', '', undefined, I);
    expect(response.status, response.text).toBe(204);
  }
}

/** Polls until `predicate` holds for the consumer's assignment, or fails after `timeoutMs`. */
export async function waitForAssignment(
  consumer: V2Consumer,
  predicate: (partitions: string[]) => boolean,
  timeoutMs = 15_000,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let last: string[] = [];
  while (Date.now() < deadline) {
    last = await consumer.assignment();
    if (predicate(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`assignment of ${consumer.name} never matched; last ${JSON.stringify(last)}`);
}

/** Produces `values` (strings) spread over partitions by key, through v2 binary produce, 100 per request. */
export async function produceValues(url: string, topic: string, values: string[], partition?: number): Promise<void> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  for (let i = 0; i < values.length; i += 100) {
    const records = values.slice(i, i + 100).map((value) => ({ key: b64(`key-${value}`), value: b64(value) }));
    const path = partition === undefined ? `/topics/${topic}` : `/topics/${topic}/partitions/${partition}`;
    const response = await call(url, 'POST', path, {
      body: { records },
      contentType: 'application/vnd.kafka.binary.v2+json',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.offsets.every((o: { error_code: number | null }) => o.error_code === null)).toBe(true);
  }
}

/** A binary-format record's value, as UTF-8 text. */
export const valueText = (record: V2Record) => Buffer.from(record.value as string, 'base64').toString('utf8');

/** Confluent's committed-offsets query sends its partitions in a GET body, which fetch() refuses to send. */
export function getWithBody(target: string, body: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      target,
      { method: 'GET', headers: { 'content-type': V2, 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(JSON.parse(text) as unknown));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
