// Query of Brook's stateless read, GET .../partitions/{p}/records: where to start (one of offset, timestamp and
// from; from=earliest when none), how much (max_bytes, max_records), how long to wait for data (wait_ms) and how
// to encode keys and values (format: binary, json, string, or a schema format). 400 (400) for a bad one. The bounds that come from the broker's settings
// (max_bytes up to BROOK_READ_BYTES_MAX, wait_ms up to BROOK_READ_WAIT_MS_MAX) are checked by ReadLimitsPipe.
import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { IsOptional } from '../../common/class-validator.js';
import { errors } from '../../common/brook-error.js';
import { integerProblem } from '../../application/params.js';
import { READ_FORMATS, type ReadFormat } from '../../application/record-format.js';
import { BROKER_CONFIG } from '../../config/broker-config.provider.js';
import type { BrokerConfig } from '../../config/broker-config.js';
import { BodyRules, givenFields } from '../validation/body-rules.js';
import { IntegerText, OneOfText, TimestampText } from '../validation/query-rules.js';
import { BAD_REQUEST, RejectsWith } from '../validation/rest-validation.pipe.js';

export const DEFAULT_MAX_BYTES = 1024 * 1024;
export const DEFAULT_MAX_RECORDS = 500;
export const MAX_RECORDS_LIMIT = 10_000;
const STARTS = ['offset', 'timestamp', 'from'];

@RejectsWith(BAD_REQUEST)
@BodyRules({
  name: 'oneStart',
  check: (query) => givenFields(query).filter((name) => STARTS.includes(name)).length <= 1,
  message: (query) =>
    `Give only one of offset, timestamp and from (got ${STARTS.filter((name) => query[name] !== undefined).join(', ')}).`,
})
export class ReadRecordsQuery {
  @OneOfText(READ_FORMATS, `one of ${READ_FORMATS.join(', ')}`)
  format: ReadFormat = 'binary';

  /** Bounded by ReadLimitsPipe. */
  @IntegerText({ min: Number.MIN_SAFE_INTEGER, fallback: DEFAULT_MAX_BYTES })
  max_bytes = DEFAULT_MAX_BYTES;

  @IntegerText({ min: 1, max: MAX_RECORDS_LIMIT, fallback: DEFAULT_MAX_RECORDS })
  max_records = DEFAULT_MAX_RECORDS;

  /** Bounded by ReadLimitsPipe. */
  @IntegerText({ min: Number.MIN_SAFE_INTEGER, fallback: 0 })
  wait_ms = 0;

  @IsOptional()
  @IntegerText()
  offset?: number;

  @IsOptional()
  @TimestampText()
  timestamp?: number;

  @IsOptional()
  @OneOfText(['earliest', 'latest'], 'earliest or latest')
  from?: 'earliest' | 'latest';
}

/** The read's bounds that come from the broker's settings, after the DTO has read the numbers. */
@Injectable()
export class ReadLimitsPipe implements PipeTransform<ReadRecordsQuery, ReadRecordsQuery> {
  constructor(@Inject(BROKER_CONFIG) private readonly config: BrokerConfig) {}

  transform(query: ReadRecordsQuery): ReadRecordsQuery {
    within(query.max_bytes, 'max_bytes', 1, this.config.readBytesMax);
    within(query.wait_ms, 'wait_ms', 0, this.config.readWaitMsMax);
    return query;
  }
}

function within(value: number, name: string, min: number, max: number): void {
  const problem = integerProblem(String(value), min, max);
  if (problem !== null) throw errors.badRequest(`${name} ${problem}`);
}
