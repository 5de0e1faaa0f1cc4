// The WebSocket protocol of GET /v3/ws (DESIGN.md section 4, asyncapi.yaml): JSON text frames, each an object
// with an `op`. This file is the one place that knows the frames: it lists the ops both ways (asyncapi.yaml is
// kept equal to these lists by a test), routes each client frame to the handler of its op (the WebSocket adapter's
// message parser) with a produce frame parsed into records, and writes the server's frames. The control frames'
// fields are checked by their DTOs (frames.dto.ts). Pure: no sockets, no broker state (topics and offsets are
// checked by the session).
//
// Client -> server:
//   produce     {id, topic, records: [{key?, value?, headers?: [{name, value(base64)|null}], partition?}],
//                acks?: 0|1|"all", format?: "string"|"json"|"binary",
//                producer_id?, producer_epoch?, sequence? (all three or none: idempotent),
//                idempotency_key? (not with the producer fields)}  -> ack (replayed: true for a retry) | error
//   subscribe   {id, assign: [{topic, partition, offset?}] | topics: [..] + group, group_instance_id?,
//                from?: "earliest"|"latest"|"timestamp", timestamp?, format?, credits?}  -> subscribed, records...
//   credit      {id, n}                 grants n more records to subscription id
//   commit      {id, offsets: [{topic, partition, offset}]}                      -> committed | error
//   unsubscribe {id}
// Server -> client: ack {id, offsets: [{partition, offset}], replayed?}, subscribed {id, partitions: [{topic, partition,
//   offset}]}, records {id, records: [...]}, assigned {id, partitions, generation}, revoked {id, partitions},
//   committed {id}, error {id?, error_code, message}.
import { BrookError, errors, outcomeField } from '../common/brook-error.js';
import type { RecordHeader } from '../partition-log/record-batch.js';
import type { Acks } from '../replication/replica-manager.service.js';
import { producerFields } from '../application/idempotence/producer-headers.js';
import { bodyDigest, idempotencyKeyField } from '../application/idempotence/idempotency-key.js';
import { outcomesReplayed } from '../application/idempotence/request-producer.js';
import type { IdempotentProducer, ProduceInput, ProduceOutcome } from '../application/produce/produce.service.js';
import type { LaidOutRecords } from '../application/produce/laid-out-records.js';
import { decodeBase64, type ReadFormat } from '../application/record-format.js';
import { PRODUCE_FORMATS, shown, wording, type ProduceFormat } from './frame-wording.js';

/** The one WebSocket endpoint of a broker. */
export const WS_PATH = '/v3/ws';

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
          ...outcomeField(outcome.error),
        },
  );
  return JSON.stringify({ op: 'ack', id, offsets, ...(outcomesReplayed(outcomes) ? { replayed: true } : {}) });
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

export interface ProduceFrame {
  op: 'produce';
  id: FrameId;
  topic: string;
  records: ProduceInput[];
  acks: Acks;
  /** Record i has sequence producer.sequence + i; null: not idempotent. */
  producer: IdempotentProducer | null;
  /** The frame's idempotency_key and the digest of its records (application/idempotence/); null: none. */
  idempotency: { key: string; digest: number } | null;
}

/**
 * A produce frame of the common shape read by the scanner (produce-frame-scanner.ts) instead of parseProduce: the
 * same frame, its records laid out as one batch's records section, each stamped `timestampMs`; never idempotent.
 */
export interface ScannedProduceFrame {
  op: 'produce';
  id: FrameId;
  topic: string;
  laidOut: LaidOutRecords;
  timestampMs: number;
  acks: Acks;
  producer: null;
  idempotency: null;
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

/** The ops whose frame goes to its handler as the client's JSON object, checked there by its DTO (frames.dto.ts). */
export type ControlOp = Exclude<ClientOp, 'produce'>;

/** A control frame as the client sent it, its `id` checked by the router. */
export interface ControlFrameBody {
  op: ControlOp;
  id: FrameId;
  [field: string]: unknown;
}

/** The event of the frames the router refuses. Not an op: a client cannot name it. */
export const REFUSED_FRAME = 'refused frame';

export interface RefusedFrame {
  id?: FrameId;
  error: BrookError;
}

/** A frame as the router hands it to the gateway: the event of its handler and what the handler gets. */
export type RoutedFrame =
  | { event: 'produce'; data: ProduceFrame }
  | { event: ControlOp; data: ControlFrameBody }
  | { event: typeof REFUSED_FRAME; data: RefusedFrame };

/** A frame as the adapter hands it to the gateway: routeFrame's, or a produce frame the scanner read. */
export type RoutedMessage = RoutedFrame | { event: 'produce'; data: ScannedProduceFrame };

export interface RouterLimits {
  /** BROOK_PRODUCE_BATCH_ENTRIES_MAX: records in one produce frame. */
  produceRecordsMax: number;
}

type JsonObject = Record<string, unknown>;

/**
 * Routes one client frame to the handler of its op (ws.gateway.ts): a text frame that is a JSON object with a valid
 * `id` and a known `op`. A produce frame is parsed here, records and all (the hot path: one pass, no class instances
 * per record); a control frame goes on as its JSON object, for its DTO (frames.dto.ts). Never throws: any other
 * frame, binary or broken, goes to REFUSED_FRAME with the error naming the problem (and the id if it has one).
 */
export function routeFrame(data: string | Buffer, limits: RouterLimits, nowMs: number): RoutedFrame {
  if (typeof data !== 'string')
    return refused(errors.invalidRequest('Binary frames are not accepted; send JSON text frames.'));
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    return refused(errors.invalidRequest(`Frame is not valid JSON: ${(error as Error).message}`));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return refused(errors.invalidRequest('Frame must be a JSON object with an op.'));
  }
  const object = parsed as JsonObject;
  const id = validId(object.id);
  if (id === undefined)
    return refused(errors.invalidRequest(`id must be a string of 1 to ${ID_LENGTH_MAX} characters or an integer.`));
  const op = object.op;
  if (op === 'produce') {
    try {
      return { event: 'produce', data: parseProduce(object, id, limits, nowMs) };
    } catch (error) {
      if (!(error instanceof BrookError)) throw error;
      return refused(error, id);
    }
  }
  if (op === 'subscribe' || op === 'credit' || op === 'commit' || op === 'unsubscribe')
    return { event: op, data: object as ControlFrameBody };
  return refused(
    errors.invalidRequest(
      `Unknown op ${op === undefined ? 'undefined' : shown(op)}; expected one of ${CLIENT_OPS.join(', ')}.`,
    ),
    id,
  );
}

function refused(error: BrookError, id?: FrameId): RoutedFrame {
  return { event: REFUSED_FRAME, data: id === undefined ? { error } : { id, error } };
}

/** Whether `value` is a frame id: a string of 1 to 80 characters, or a safe integer. */
export function isFrameId(value: unknown): value is FrameId {
  return validId(value) !== undefined;
}

function validId(value: unknown): FrameId | undefined {
  if (typeof value === 'string' && value.length > 0 && value.length <= ID_LENGTH_MAX) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  return undefined;
}

function integer(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw errors.invalidRequest(wording.integer(field, min, max, value));
  }
  return value;
}

function nonEmptyString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) throw errors.invalidRequest(wording.nonEmptyString(field));
  return value;
}

function objectAt(value: unknown, field: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw errors.invalidRequest(wording.object(field));
  return value as JsonObject;
}

function arrayAt(value: unknown, field: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value) || value.length < min || value.length > max)
    throw errors.invalidRequest(wording.array(field, min, max));
  return value;
}

function produceFormat(value: unknown): ProduceFormat {
  if (value === undefined || value === null) return 'string';
  if (!PRODUCE_FORMATS.includes(value as ProduceFormat)) {
    throw errors.invalidRequest(wording.format(value, PRODUCE_FORMATS));
  }
  return value as ProduceFormat;
}

/** The acks a frame's `acks` field names, or null when it names none. */
export function acksOf(value: unknown): Acks | null {
  if (value === undefined || value === null || value === 'all' || value === -1 || value === '-1') return 'all';
  if (value === 0 || value === '0') return '0';
  if (value === 1 || value === '1') return '1';
  return null;
}

function acks(value: unknown): Acks {
  const named = acksOf(value);
  if (named === null) throw errors.invalidRequest(`acks must be 0, 1 or "all", got ${shown(value)}.`);
  return named;
}

/** A key or value in the frame's format: string (UTF-8 text), json (any JSON value) or binary (base64). */
function toBytes(value: unknown, recordFormat: ProduceFormat, field: string): Buffer | null {
  if (value === undefined || value === null) return null;
  switch (recordFormat) {
    case 'string':
      if (typeof value !== 'string') throw errors.invalidPayload(`${field} must be a string in format string.`);
      return Buffer.from(value, 'utf8');
    case 'json':
      return jsonBytes(value, field);
    case 'binary':
      if (typeof value !== 'string') throw errors.invalidPayload(`${field} must be a base64 string in format binary.`);
      return decodeBase64(value, field);
  }
}

function jsonBytes(value: unknown, field: string): Buffer {
  try {
    return Buffer.from(JSON.stringify(value), 'utf8');
  } catch {
    throw errors.invalidPayload(`${field} is nested too deeply to be stored as JSON.`);
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

function parseProduce(object: JsonObject, id: FrameId, limits: RouterLimits, nowMs: number): ProduceFrame {
  const topic = nonEmptyString(object.topic, 'topic');
  const recordFormat = produceFormat(object.format);
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
  const key = idempotencyKeyField(object.idempotency_key, 'idempotency_key');
  if (key !== null && producer !== null) {
    throw errors.badRequest('A produce frame carries either idempotency_key or the producer fields, not both.');
  }
  const idempotency =
    key === null ? null : { key, digest: bodyDigest('ws', recordFormat, JSON.stringify(object.records)) };
  return { op: 'produce', id, topic, records, acks: acks(object.acks), producer, idempotency };
}

/** The five-digit code an error frame carries: Brook's own codes as they are, generic HTTP statuses mapped. */
export function errorFrameCode(error: BrookError): number {
  if (error.errorCode >= 10_000) return error.errorCode;
  return error.status >= 500 ? 50002 : 40002;
}

/** What a client is told of an exception: a BrookError as it is, anything else as a broker error (50002). */
export function asBrookError(error: unknown): BrookError {
  return error instanceof BrookError ? error : errors.kafkaError((error as Error).message);
}

export function errorFrame(error: BrookError, id?: FrameId): string {
  return JSON.stringify({
    op: 'error',
    ...(id === undefined ? {} : { id }),
    error_code: errorFrameCode(error),
    message: error.message,
    ...outcomeField(error),
  });
}
