// The WebSocket protocol of GET /v3/ws (DESIGN.md section 4, asyncapi.yaml): JSON text frames, each an object
// with an `op`. This file is the one place that knows the frames: it lists the ops both ways (asyncapi.yaml is
// kept equal to these lists by a test) and turns a client frame's text into a checked, typed frame or an error
// naming the field. Pure: no sockets, no broker state (topics and offsets are checked by the session).
//
// Client -> server:
//   produce     {id, topic, records: [{key?, value?, headers?: [{name, value(base64)|null}], partition?}],
//                acks?: 0|1|"all", format?: "string"|"json"|"binary",
//                producer_id?, producer_epoch?, sequence? (all three or none: idempotent)}  -> ack | error
//   subscribe   {id, assign: [{topic, partition, offset?}] | topics: [..] + group, group_instance_id?,
//                from?: "earliest"|"latest"|"timestamp", timestamp?, format?, credits?}  -> subscribed, records...
//   credit      {id, n}                 grants n more records to subscription id
//   commit      {id, offsets: [{topic, partition, offset}]}                      -> committed | error
//   unsubscribe {id}
// Server -> client: ack {id, offsets: [{partition, offset}]}, subscribed {id, partitions: [{topic, partition,
//   offset}]}, records {id, records: [...]}, assigned {id, partitions, generation}, revoked {id, partitions},
//   committed {id}, error {id?, error_code, message}.
import { BrookError, errors } from '../common/brook-error.js';
import { dotSegmentMessage, isDotSegment } from '../common/url-ids.js';
import type { RecordHeader } from '../partition-log/record-batch.js';
import type { Acks } from '../replication/replica-manager.service.js';
import { producerFields } from '../application/idempotence/producer-headers.js';
import type { IdempotentProducer, ProduceInput, ProduceOutcome } from '../application/produce/produce.service.js';
import { timestampParam } from '../application/params.js';
import { decodeBase64, type ReadFormat } from '../application/record-format.js';

export const CLIENT_OPS = ['produce', 'subscribe', 'credit', 'commit', 'unsubscribe'] as const;
export const SERVER_OPS = [
  'ack',
  'subscribed',
  'records',
  'assigned',
  'revoked',
  'committed',
  'throttled',
  'error',
] as const;

/** The `ack` of a produce frame: one entry per record, in order, with its offset or its error. */
export function ackFrame(id: FrameId, outcomes: readonly ProduceOutcome[]): string {
  const offsets = outcomes.map((outcome) =>
    outcome.ok
      ? { partition: outcome.partition, offset: outcome.offset }
      : {
          partition: outcome.partition,
          offset: null,
          error_code: errorFrameCode(outcome.error),
          message: outcome.error.message,
        },
  );
  return JSON.stringify({ op: 'ack', id, offsets });
}

/** The notice of a throttle (security/stream-quota.ts): the quota, and how long the broker holds back. */
export function throttledFrame(quota: string, waitMs: number, id?: FrameId): string {
  return JSON.stringify({ op: 'throttled', ...(id === undefined ? {} : { id }), quota, wait_ms: waitMs });
}

export type ClientOp = (typeof CLIENT_OPS)[number];
export type FrameId = string | number;
export type StartFrom = 'earliest' | 'latest' | 'timestamp';

const ID_LENGTH_MAX = 80;
const PRODUCER_FIELDS = ['producer_id', 'producer_epoch', 'sequence'] as const;
const FORMATS: readonly ReadFormat[] = ['string', 'json', 'binary'];

export interface ProduceFrame {
  op: 'produce';
  id: FrameId;
  topic: string;
  records: ProduceInput[];
  acks: Acks;
  /** Record i has sequence producer.sequence + i; null: not idempotent. */
  producer: IdempotentProducer | null;
}

export interface PartitionStart {
  topic: string;
  partition: number;
  offset: number | null;
}

export interface SubscribeFrame {
  op: 'subscribe';
  id: FrameId;
  /** Explicit partitions (no group), or null for a group subscription to `topics`. */
  assign: PartitionStart[] | null;
  topics: string[] | null;
  group: string | null;
  groupInstanceId: string | null;
  from: StartFrom;
  timestampMs: number | null;
  format: ReadFormat;
  credits: number;
}

export interface CreditFrame {
  op: 'credit';
  id: FrameId;
  n: number;
}

export interface CommitFrame {
  op: 'commit';
  id: FrameId;
  offsets: Array<{ topic: string; partition: number; offset: number }>;
}

export interface UnsubscribeFrame {
  op: 'unsubscribe';
  id: FrameId;
}

export type ClientFrame = ProduceFrame | SubscribeFrame | CreditFrame | CommitFrame | UnsubscribeFrame;

export type ParsedFrame = { ok: true; frame: ClientFrame } | { ok: false; id?: FrameId; error: BrookError };

export interface ProtocolLimits {
  produceRecordsMax: number;
  creditsMax: number;
  defaultCredits: number;
  assignPartitionsMax: number;
}

type JsonObject = Record<string, unknown>;

/** Parses one text frame. Never throws: every problem becomes an error naming the field (and the id if known). */
export function parseClientFrame(text: string, limits: ProtocolLimits, nowMs: number): ParsedFrame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: errors.invalidRequest(`Frame is not valid JSON: ${(error as Error).message}`) };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: errors.invalidRequest('Frame must be a JSON object with an op.') };
  }
  const object = parsed as JsonObject;
  const id = validId(object.id);
  try {
    if (id === undefined)
      throw errors.invalidRequest(`id must be a string of 1 to ${ID_LENGTH_MAX} characters or an integer.`);
    switch (object.op) {
      case 'produce':
        return { ok: true, frame: parseProduce(object, id, limits, nowMs) };
      case 'subscribe':
        return { ok: true, frame: parseSubscribe(object, id, limits) };
      case 'credit':
        return { ok: true, frame: { op: 'credit', id, n: integer(object.n, 'n', 1, limits.creditsMax) } };
      case 'commit':
        return { ok: true, frame: parseCommit(object, id, limits) };
      case 'unsubscribe':
        return { ok: true, frame: { op: 'unsubscribe', id } };
      default:
        throw errors.invalidRequest(
          `Unknown op ${JSON.stringify(object.op) ?? 'undefined'}; expected one of ${CLIENT_OPS.join(', ')}.`,
        );
    }
  } catch (error) {
    if (!(error instanceof BrookError)) throw error;
    return { ok: false, ...(id === undefined ? {} : { id }), error };
  }
}

function validId(value: unknown): FrameId | undefined {
  if (typeof value === 'string' && value.length > 0 && value.length <= ID_LENGTH_MAX) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  return undefined;
}

function integer(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw errors.invalidRequest(`${field} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function nonEmptyString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw errors.invalidRequest(`${field} must be a non-empty string.`);
  return value;
}

function optionalString(value: unknown, field: string): string | null {
  return value === undefined || value === null ? null : nonEmptyString(value, field);
}

/** A group or group instance id: it ends up in URL paths (v3 consumer-group routes), so not `.` or `..`. */
function optionalId(value: unknown, field: string): string | null {
  const id = optionalString(value, field);
  if (id !== null && isDotSegment(id)) throw errors.invalidRequest(dotSegmentMessage(field));
  return id;
}

function objectAt(value: unknown, field: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw errors.invalidRequest(`${field} must be a JSON object.`);
  return value as JsonObject;
}

function arrayAt(value: unknown, field: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value) || value.length < min || value.length > max)
    throw errors.invalidRequest(`${field} must be an array of ${min} to ${max} items.`);
  return value;
}

function format(value: unknown): ReadFormat {
  if (value === undefined || value === null) return 'string';
  if (!FORMATS.includes(value as ReadFormat))
    throw errors.invalidRequest(`format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(value)}.`);
  return value as ReadFormat;
}

function acks(value: unknown): Acks {
  if (value === undefined || value === null || value === 'all' || value === -1 || value === '-1') return 'all';
  if (value === 0 || value === '0') return '0';
  if (value === 1 || value === '1') return '1';
  throw errors.invalidRequest(`acks must be 0, 1 or "all", got ${JSON.stringify(value)}.`);
}

/** A key or value in the frame's format: string (UTF-8 text), json (any JSON value) or binary (base64). */
function toBytes(value: unknown, recordFormat: ReadFormat, field: string): Buffer | null {
  if (value === undefined || value === null) return null;
  switch (recordFormat) {
    case 'string':
      if (typeof value !== 'string') throw errors.invalidPayload(`${field} must be a string in format string.`);
      return Buffer.from(value, 'utf8');
    case 'json':
      return Buffer.from(JSON.stringify(value), 'utf8');
    case 'binary':
      if (typeof value !== 'string') throw errors.invalidPayload(`${field} must be a base64 string in format binary.`);
      return decodeBase64(value, field);
  }
}

function headers(value: unknown, field: string): RecordHeader[] {
  if (value === undefined || value === null) return [];
  return arrayAt(value, field, 0, Number.MAX_SAFE_INTEGER).map((item, i) => {
    const header = objectAt(item, `${field}[${i}]`);
    const raw = header.value;
    if (raw !== undefined && raw !== null && typeof raw !== 'string')
      throw errors.invalidPayload(`${field}[${i}].value must be a base64 string or null.`);
    return {
      key: nonEmptyString(header.name, `${field}[${i}].name`),
      value: typeof raw === 'string' ? decodeBase64(raw, `${field}[${i}].value`) : null,
    };
  });
}

function parseProduce(object: JsonObject, id: FrameId, limits: ProtocolLimits, nowMs: number): ProduceFrame {
  const topic = nonEmptyString(object.topic, 'topic');
  const recordFormat = format(object.format);
  const records = arrayAt(object.records, 'records', 1, limits.produceRecordsMax).map((item, i): ProduceInput => {
    const record = objectAt(item, `records[${i}]`);
    const partition = record.partition;
    return {
      key: toBytes(record.key, recordFormat, `records[${i}].key`),
      value: toBytes(record.value, recordFormat, `records[${i}].value`),
      headers: headers(record.headers, `records[${i}].headers`),
      timestamp: nowMs,
      partition:
        partition === undefined || partition === null ? null : integer(partition, `records[${i}].partition`, 0),
    };
  });
  const producer = producerFields(object.producer_id, object.producer_epoch, object.sequence, PRODUCER_FIELDS);
  return { op: 'produce', id, topic, records, acks: acks(object.acks), producer };
}

function parseSubscribe(object: JsonObject, id: FrameId, limits: ProtocolLimits): SubscribeFrame {
  const group = optionalId(object.group, 'group');
  const groupInstanceId = optionalId(object.group_instance_id, 'group_instance_id');
  let assign: PartitionStart[] | null = null;
  let topics: string[] | null = null;
  if (object.assign !== undefined && object.topics !== undefined)
    throw errors.invalidRequest('Give either assign or topics, not both.');
  if (object.assign !== undefined) {
    if (group !== null) throw errors.invalidRequest('A group subscription names topics, not assign.');
    const seen = new Set<string>();
    assign = arrayAt(object.assign, 'assign', 1, limits.assignPartitionsMax).map((item, i) => {
      const entry = objectAt(item, `assign[${i}]`);
      const start: PartitionStart = {
        topic: nonEmptyString(entry.topic, `assign[${i}].topic`),
        partition: integer(entry.partition, `assign[${i}].partition`, 0),
        offset:
          entry.offset === undefined || entry.offset === null ? null : integer(entry.offset, `assign[${i}].offset`, 0),
      };
      const key = `${start.topic}\u0000${start.partition}`;
      if (seen.has(key)) throw errors.invalidRequest(`assign names ${start.topic}-${start.partition} twice.`);
      seen.add(key);
      return start;
    });
  } else if (object.topics !== undefined) {
    topics = arrayAt(object.topics, 'topics', 1, limits.assignPartitionsMax).map((topic, i) =>
      nonEmptyString(topic, `topics[${i}]`),
    );
    if (group === null) throw errors.invalidRequest('A subscription to topics needs a group; without one, use assign.');
  } else {
    throw errors.invalidRequest('subscribe needs assign (explicit partitions) or topics with a group.');
  }
  const from = object.from ?? 'latest';
  if (from !== 'earliest' && from !== 'latest' && from !== 'timestamp')
    throw errors.invalidRequest(`from must be earliest, latest or timestamp, got ${JSON.stringify(from)}.`);
  let timestampMs: number | null = null;
  if (from === 'timestamp') {
    const raw = object.timestamp;
    if (typeof raw === 'number') timestampMs = integer(raw, 'timestamp', 0);
    else if (typeof raw === 'string') timestampMs = timestampParam(raw, 'timestamp');
    else throw errors.invalidRequest('from=timestamp needs timestamp (epoch milliseconds or RFC 3339).');
  } else if (object.timestamp !== undefined) {
    throw errors.invalidRequest('timestamp is only allowed with from=timestamp.');
  }
  const credits =
    object.credits === undefined || object.credits === null
      ? Math.min(limits.defaultCredits, limits.creditsMax)
      : integer(object.credits, 'credits', 0, limits.creditsMax);
  return {
    op: 'subscribe',
    id,
    assign,
    topics,
    group,
    groupInstanceId,
    from,
    timestampMs,
    format: format(object.format),
    credits,
  };
}

function parseCommit(object: JsonObject, id: FrameId, limits: ProtocolLimits): CommitFrame {
  const offsets = arrayAt(object.offsets, 'offsets', 1, limits.assignPartitionsMax).map((item, i) => {
    const entry = objectAt(item, `offsets[${i}]`);
    return {
      topic: nonEmptyString(entry.topic, `offsets[${i}].topic`),
      partition: integer(entry.partition, `offsets[${i}].partition`, 0),
      offset: integer(entry.offset, `offsets[${i}].offset`, 0),
    };
  });
  return { op: 'commit', id, offsets };
}

/** The five-digit code an error frame carries: Brook's own codes as they are, generic HTTP statuses mapped. */
export function errorFrameCode(error: BrookError): number {
  if (error.errorCode >= 10_000) return error.errorCode;
  return error.status >= 500 ? 50002 : 40002;
}

export function errorFrame(error: BrookError, id?: FrameId): string {
  return JSON.stringify({
    op: 'error',
    ...(id === undefined ? {} : { id }),
    error_code: errorFrameCode(error),
    message: error.message,
  });
}
