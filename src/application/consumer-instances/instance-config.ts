// The body of REST Proxy v2's "create consumer instance" (POST /consumers/{group}), validated by the REST edge
// (42204 for anything Confluent would reject), turned into the instance's configuration: Confluent's field names,
// string or native values as its clients send them, and Confluent's defaults.
import { randomUUID } from 'node:crypto';
import type { InstanceFormat, InstanceValue } from '../../group-coordinator/group-records.js';

/** Consumer instance names end up in URLs and in __consumer_offsets keys: keep them short and path-safe. */
export const INSTANCE_NAME_MAX_LENGTH = 200;
export const INSTANCE_NAME = /^[A-Za-z0-9._~-]+$/;

/** The formats of an instance's records: Confluent's binary and json, and the schema formats. */
export const INSTANCE_FORMATS: readonly InstanceFormat[] = ['binary', 'json', 'avro', 'jsonschema', 'protobuf'];

/** Confluent's CreateConsumerRequest, as its clients send it (booleans and numbers also as strings). */
export interface CreateInstanceBody {
  name?: string | null;
  /** The old name of `name`. */
  id?: string | null;
  format?: InstanceFormat | null;
  'auto.offset.reset'?: string | null;
  'auto.commit.enable'?: boolean | string | null;
  'fetch.min.bytes'?: number | string | null;
  'consumer.request.timeout.ms'?: number | string | null;
}

export interface InstanceDefaults {
  requestTimeoutMs: number;
}

export function isInstanceName(name: unknown): boolean {
  return (
    typeof name === 'string' && name.length > 0 && name.length <= INSTANCE_NAME_MAX_LENGTH && INSTANCE_NAME.test(name)
  );
}

/** auto.offset.reset, with the old consumer's names (smallest, largest) that some clients still send; null if none. */
export function offsetResetOf(raw: unknown): 'earliest' | 'latest' | 'none' | null {
  if (raw === 'earliest' || raw === 'latest' || raw === 'none') return raw;
  if (raw === 'smallest') return 'earliest';
  if (raw === 'largest') return 'latest';
  return null;
}

/** A boolean, or its name as a string; null for anything else. */
export function flagOf(raw: unknown): boolean | null {
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  return null;
}

/** A non-negative integer, or its digits as a string; null for anything else. */
export function countOf(raw: unknown): number | null {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** The instance a valid body asks for: its name (given, or a new random one) and its configuration. */
export function newInstance(
  body: CreateInstanceBody,
  defaults: InstanceDefaults,
  nowMs: number,
): { name: string; value: InstanceValue } {
  return {
    name: body.name ?? body.id ?? `rest-consumer-${randomUUID()}`,
    value: {
      format: body.format ?? 'binary',
      autoOffsetReset: offsetResetOf(body['auto.offset.reset']) ?? 'latest',
      autoCommitEnable: flagOf(body['auto.commit.enable']) ?? true,
      fetchMinBytes: countOf(body['fetch.min.bytes']) ?? 1,
      requestTimeoutMs: countOf(body['consumer.request.timeout.ms']) ?? defaults.requestTimeoutMs,
      subscription: null,
      assignment: null,
      createdAtMs: nowMs,
    },
  };
}
