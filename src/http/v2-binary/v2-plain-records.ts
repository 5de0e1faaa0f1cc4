// The native loop of the v2 binary produce scanner over runs of records of the plain shape {"value":"<base64>"}
// (native/v2-plain-records.c, whose header defines the call), or null where `npm run build` could not build it, the
// CPU has no AVX2, or BROOK_NATIVE_V2_SCAN=false: the scanner then reads every record itself. It frames only records
// it has checked completely and leaves everything else to the scanner (v2-binary-body.ts).
import { loadAddonFunction } from '../../common/native-addon.js';

/**
 * The loop does not take what starts at body[at] (another record shape, or not a record at all); nothing is counted
 * for it, though data past `written` may hold scraps of its framing, which the scanner writes over.
 */
export const PLAIN_OTHER = 0;
/** body[at] follows the '}' of a framed record, and no ',' follows it. */
export const PLAIN_AFTER_RECORD = 1;
/** The next record needs state[PLAIN_STATE_NEEDED] bytes of data from `written` on: grow the data. */
export const PLAIN_DATA_FULL = 2;
/** count reached the columns' length: grow them. */
export const PLAIN_COLUMNS_FULL = 3;

/** The fields of the state array: read and written by the call. */
export const PLAIN_STATE_AT = 0;
export const PLAIN_STATE_WRITTEN = 1;
export const PLAIN_STATE_COUNT = 2;
export const PLAIN_STATE_NEEDED = 3;
export const PLAIN_STATE_FIELDS = 4;

export type FramePlainRecords = (
  body: Uint8Array,
  data: Uint8Array,
  keyAt: Int32Array,
  keyLength: Int32Array,
  valueAt: Int32Array,
  valueLength: Int32Array,
  state: Int32Array,
) => number;

export const nativeFramePlainRecords: FramePlainRecords | null = loadAddonFunction<FramePlainRecords>(
  'v2-plain-records',
  'framePlainRecords',
  'BROOK_NATIVE_V2_SCAN',
);
