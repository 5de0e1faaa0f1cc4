// Kafka's record batch, magic v2 (layout in record-batch-layout.ts): what the rest of the broker imports. The
// layout and the header's accessors, building batches and reading their records each have their own file.
export {
  assignOffsetAndEpoch,
  BATCH_BYTES_MAX,
  BATCH_HEADER_BYTES,
  compressionOf,
  CorruptBatchError,
  hasValidCrc,
  isControlBatch,
  lastOffsetOf,
  LOG_OVERHEAD_BYTES,
  MAGIC_V2,
  NO_PARTITION_LEADER_EPOCH,
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  readBatchHeader,
  stampLogAppendTime,
  timestampTypeOf,
  TimestampType,
  validateBatch,
  validateBatchStructure,
  type BatchHeader,
  type RecordHeader,
} from './record-batch-layout.js';
export {
  encodeBatch,
  encodeEmptyBatch,
  encodeSpansBatch,
  frameSpansBatch,
  spanRecordBodySize,
  type BatchOptions,
  type BatchProducer,
  type RecordInput,
  type RecordSpans,
} from './record-batch-builder.js';
export { batchesIn, batchesSummary, decodeRecords, type LogRecord } from './record-batch-reader.js';
export { RecordCursor } from './record-cursor.js';
