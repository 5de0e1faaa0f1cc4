// Produce (API key 0), versions 3-9; flexible from 9. v3 is the first with record batches (magic v2) and the
// transactional id; v7 allows zstd; v8 answers per-record errors. The records of each partition are one opaque
// byte range (a slice of the request frame), handed to the log as they are.
import { array, defineApi, int16, int32, int64, records, string } from '../schema.js';

export const produce = defineApi({
  name: 'Produce',
  apiKey: 0,
  versions: '3-9',
  flexible: '9+',
  request: [
    string('transactionalId', '3+', { nullable: '3+', default: null }),
    int16('acks', '0+'),
    int32('timeoutMs', '0+'),
    array('topicData', '0+', [
      string('name', '0+'),
      array('partitionData', '0+', [int32('index', '0+'), records('records', '0+', { nullable: '0+' })]),
    ]),
  ],
  response: [
    array('responses', '0+', [
      string('name', '0+'),
      array('partitionResponses', '0+', [
        int32('index', '0+'),
        int16('errorCode', '0+'),
        int64('baseOffset', '0+'),
        int64('logAppendTimeMs', '2+', { default: -1, ignorable: true }),
        int64('logStartOffset', '5+', { default: -1, ignorable: true }),
        array(
          'recordErrors',
          '8+',
          [int32('batchIndex', '8+'), string('batchIndexErrorMessage', '8+', { nullable: '8+', default: null })],
          { ignorable: true },
        ),
        string('errorMessage', '8+', { nullable: '8+', default: null, ignorable: true }),
      ]),
    ]),
    int32('throttleTimeMs', '1+', { default: 0, ignorable: true }),
  ],
});
