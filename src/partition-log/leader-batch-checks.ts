// What a batch appended as leader is checked for before it is queued, and which checks wait for its write
// (log-appender.ts's header says why): its structure; its CRC here, or in the write's thread-pool job
// (`checkWhileWriting`); max.message.bytes; and for a client's batch its records, here or, uncompressed and with its
// CRC checked while writing, in the same job (`recordWalk`).
import type { LogConfig } from './log-config.js';
import { RecordTooLargeError } from './log-errors.js';
import {
  BATCH_BYTES_MAX,
  CorruptBatchError,
  hasValidCrc,
  NO_PRODUCER_ID,
  readBatchHeader,
  TimestampType,
  validateBatchStructure,
  type BatchHeader,
} from './record-batch-layout.js';
import {
  recordWalkDeferrable,
  RecordWalk,
  validateClientBatchHeader,
  validateClientRecords,
} from './record-batch-validation.js';

/** The options of an append as leader that decide its checks (LogAppender's AppendAsLeaderOptions extends them). */
export interface LeaderBatchCheckOptions {
  /** false: a batch Brook's own encoder just built, whose CRC is not checked again (default true). */
  verifyCrc?: boolean;
  /** A client's batch: check its records too (record-batch-validation.ts; default false). */
  validateRecords?: boolean;
}

export interface LeaderBatchChecks {
  header: BatchHeader;
  idempotent: boolean;
  /** The CRC (and `recordWalk`) is checked in the write's job; a failure there refuses the batch like a bad CRC. */
  checkWhileWriting: boolean;
  recordWalk: RecordWalk;
}

/** Runs the checks due before queuing; throws the refusal (CorruptBatchError, RecordTooLargeError, ...). */
export function checkLeaderBatch(
  batch: Buffer,
  config: LogConfig,
  options: LeaderBatchCheckOptions,
): LeaderBatchChecks {
  // A batch Brook's own encoder just built (verifyCrc: false) skips re-checking the CRC it computed. Any other
  // batch has its CRC checked as part of its write (see LogSegment.append), except under LogAppendTime, whose
  // stamp recomputes the CRC and so must come after the check, and an idempotent batch (see log-appender.ts).
  const verify = options.verifyCrc !== false;
  const header = verify ? validateBatchStructure(batch) : readBatchHeader(batch);
  const idempotent = header.producerId !== NO_PRODUCER_ID;
  const checkWhileWriting = verify && config.messageTimestampType !== TimestampType.LogAppendTime && !idempotent;
  if (verify && !checkWhileWriting && !hasValidCrc(batch)) throw new CorruptBatchError('batch CRC mismatch');
  if (header.sizeBytes > config.maxMessageBytes) {
    throw new RecordTooLargeError(
      `the record batch is ${header.sizeBytes} bytes, larger than max.message.bytes (${config.maxMessageBytes})`,
    );
  }
  let recordWalk: RecordWalk = RecordWalk.NONE;
  if (options.validateRecords === true) {
    const keysRequired = config.cleanupPolicyCompact;
    if (checkWhileWriting && recordWalkDeferrable(header)) {
      // walked with the CRC check in the write's job, off the event loop; refused like a bad CRC
      validateClientBatchHeader(header);
      recordWalk = keysRequired ? RecordWalk.KEYS_REQUIRED : RecordWalk.KEYS_OPTIONAL;
    } else {
      validateClientRecords(batch, header, { keysRequired, maxDecompressedBytes: BATCH_BYTES_MAX });
    }
  }
  return { header, idempotent, checkWhileWriting, recordWalk };
}
