// Parsing the body of REST Proxy v2's "create consumer instance" (POST /consumers/{group}): Confluent's field
// names, string or native values as its clients send them, and 42204 for anything it would reject.
import { randomUUID } from 'node:crypto';
import { dotSegmentMessage, isDotSegment } from '../../common/url-ids.js';
import { errors } from '../../common/brook-error.js';
import type { InstanceValue } from '../../group-coordinator/group-records.js';

/** Consumer instance names end up in URLs and in __consumer_offsets keys: keep them short and path-safe. */
export const INSTANCE_NAME_MAX_LENGTH = 200;
const INSTANCE_NAME = /^[A-Za-z0-9._~-]+$/;

export interface InstanceDefaults {
  requestTimeoutMs: number;
}

export function parseCreateInstance(
  body: unknown,
  defaults: InstanceDefaults,
  nowMs: number,
): { name: string; value: InstanceValue } {
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw errors.invalidConsumerConfig('The body must be a JSON object.');
  const fields = body as Record<string, unknown>;
  const name = fields.name ?? fields.id ?? `rest-consumer-${randomUUID()}`;
  if (
    typeof name !== 'string' ||
    name.length === 0 ||
    name.length > INSTANCE_NAME_MAX_LENGTH ||
    !INSTANCE_NAME.test(name)
  ) {
    throw errors.invalidConsumerConfig(
      `name must be 1 to ${INSTANCE_NAME_MAX_LENGTH} characters of letters, digits, '.', '_', '~' and '-'.`,
    );
  }
  if (isDotSegment(name)) throw errors.invalidConsumerConfig(dotSegmentMessage('name'));
  return {
    name,
    value: {
      format: format(fields.format),
      autoOffsetReset: offsetReset(fields['auto.offset.reset']),
      autoCommitEnable: flag(fields['auto.commit.enable'], 'auto.commit.enable', true),
      fetchMinBytes: nonNegative(fields['fetch.min.bytes'], 'fetch.min.bytes', 1),
      requestTimeoutMs: nonNegative(
        fields['consumer.request.timeout.ms'],
        'consumer.request.timeout.ms',
        defaults.requestTimeoutMs,
      ),
      subscription: null,
      assignment: null,
      createdAtMs: nowMs,
    },
  };
}

function format(raw: unknown): 'binary' | 'json' {
  if (raw === undefined || raw === null) return 'binary';
  if (raw === 'binary' || raw === 'json') return raw;
  if (raw === 'avro' || raw === 'jsonschema' || raw === 'protobuf') {
    throw errors.invalidConsumerConfig(
      `format ${raw} needs a schema registry, which Brook does not have; use binary or json.`,
    );
  }
  throw errors.invalidConsumerConfig('format must be binary or json.');
}

function offsetReset(raw: unknown): 'earliest' | 'latest' | 'none' {
  if (raw === undefined || raw === null) return 'latest';
  if (raw === 'earliest' || raw === 'latest' || raw === 'none') return raw;
  if (raw === 'smallest') return 'earliest'; // the old consumer's names, still sent by some clients
  if (raw === 'largest') return 'latest';
  throw errors.invalidConsumerConfig('auto.offset.reset must be earliest, latest or none.');
}

function flag(raw: unknown, name: string, fallback: boolean): boolean {
  if (raw === undefined || raw === null) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw errors.invalidConsumerConfig(`${name} must be true or false.`);
}

function nonNegative(raw: unknown, name: string, fallback: number): number {
  if (raw === undefined || raw === null) return fallback;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw errors.invalidConsumerConfig(`${name} must be a non-negative integer.`);
  }
  return value;
}
