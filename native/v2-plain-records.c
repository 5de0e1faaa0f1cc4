// framePlainRecords: the inner loop of the REST Proxy v2 binary produce scanner (src/http/v2-binary/v2-binary-scan.ts) for
// runs of records of the plain shape {"value":"<base64>"}, as a Node-API addon. The scanner stays the authority on
// what a body means: this loop only frames records it has checked completely, and leaves everything else (another
// shape, whitespace inside a record, text that is not base64, a batch near 2 GiB, the separator after the last record
// of a run) to the scanner's own reading, which takes and refuses exactly what it did without this loop.
//
// framePlainRecords(body: Uint8Array, data: Uint8Array, keyAt: Int32Array, keyLength: Int32Array,
//                   valueAt: Int32Array, valueLength: Int32Array, state: Int32Array): number
// state is [at, written, count, needed]: body[at] is the first byte of a record, data[written] the place of its
// framing, `count` records are framed so far. For each record of the plain shape whose value text is valid base64
// (base64-decode.h), it writes the record as encodeBatch frames it at offset delta `count` (zigzag varints: its
// length, attributes 0, timestamp delta 0, the offset delta, key length -1, the value's length, the value decoded
// from the text, header count 0), notes key -1 and the value's place in the columns, then reads the separator:
// JSON whitespace, then ',' and whitespace lead to the next record. It returns, state updated:
//   OTHER (0)        body[at] starts a record this loop does not take; nothing is counted for it (data past
//                    `written` may hold some of its framing, which the scanner writes over)
//   AFTER_RECORD (1) body[at] follows the '}' of a framed record, and no ',' follows it (the scanner reads what does)
//   DATA_FULL (2)    the next record needs state[3] bytes of data from `written` on, more than data has; grow it
//   COLUMNS_FULL (3) count reached the columns' length; grow them
// Arguments of the wrong type or positions outside the arrays are a caller's error and throw. The module refuses to
// load on a CPU without AVX2 (the scanner then reads every record itself).
#include <limits.h>
#include <string.h>

#include "base64-decode.h"
#include "typed-array.h"

enum { OTHER = 0, AFTER_RECORD = 1, DATA_FULL = 2, COLUMNS_FULL = 3 };
enum { STATE_AT, STATE_WRITTEN, STATE_COUNT, STATE_NEEDED, STATE_FIELDS };

static const uint8_t PLAIN_PREFIX[] = "{\"value\":\"";
/* The most bytes of a record's framing besides its value (5-byte varints for length, offset delta and value length,
 * attributes, timestamp delta, key length, header count): the scanner's RECORD_FRAMING_BYTES_MAX, so that both leave
 * the same room below 2 GiB. */
#define RECORD_FRAMING_BYTES_MAX (5 + 1 + 1 + 5 + 5 + 5 + 1)
#define PLAIN_PREFIX_LENGTH (sizeof PLAIN_PREFIX - 1)

static bool is_json_space(uint8_t byte) { return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r'; }

static size_t skip_space(const uint8_t *body, size_t at, size_t length) {
  while (at < length && is_json_space(body[at])) at++;
  return at;
}

static uint32_t zigzag(int32_t value) { return ((uint32_t)value << 1) ^ (uint32_t)(value >> 31); }

static size_t varint_size(int32_t value) {
  uint32_t bits = zigzag(value);
  size_t size = 1;
  while (bits >= 0x80) {
    bits >>= 7;
    size++;
  }
  return size;
}

static uint8_t *write_varint(uint8_t *out, int32_t value) {
  uint32_t bits = zigzag(value);
  while (bits >= 0x80) {
    *out++ = (uint8_t)(bits | 0x80);
    bits >>= 7;
  }
  *out++ = (uint8_t)bits;
  return out;
}

typedef struct {
  const uint8_t *body;
  size_t body_length;
  uint8_t *data;
  size_t data_length;
  int32_t *key_at, *key_length, *value_at, *value_length;
  size_t columns;
} Frame;

/* Frames the records from state on; returns a status as the header describes. */
static int32_t frame_records(const Frame *f, int32_t *state) {
  size_t at = (size_t)state[STATE_AT];
  size_t written = (size_t)state[STATE_WRITTEN];
  int32_t count = state[STATE_COUNT];
  // The previous value's text length, tried first as this one's (records of a run are usually alike): a quote and a
  // brace there end the text if the text then decodes, as base64 has no quote; if it does not, the record is read
  // again with its first quote found by memchr. SIZE_MAX: no guess.
  size_t guess = SIZE_MAX;
  for (;;) {
    if ((size_t)count >= f->columns) {
      state[STATE_AT] = (int32_t)at, state[STATE_WRITTEN] = (int32_t)written, state[STATE_COUNT] = count;
      return COLUMNS_FULL;
    }
    const size_t from = at + PLAIN_PREFIX_LENGTH;
    const bool prefixed = from <= f->body_length && memcmp(f->body + at, PLAIN_PREFIX, PLAIN_PREFIX_LENGTH) == 0;
    const bool guessed = prefixed && guess != SIZE_MAX && guess + 1 < f->body_length - from &&
                         f->body[from + guess] == '"' && f->body[from + guess + 1] == '}';
    const uint8_t *close = guessed    ? f->body + from + guess
                           : prefixed ? memchr(f->body + from, '"', f->body_length - from)
                                      : NULL;
    const size_t to = close == NULL ? 0 : (size_t)(close - f->body);
    // the plain shape: its closing quote, then '}'; a text of whole groups (else the scanner refuses the body)
    const bool plain = close != NULL && to + 1 < f->body_length && f->body[to + 1] == '}' && (to - from) % 4 == 0 &&
                       to - from <= INT_MAX;
    const size_t value_bytes = plain ? decoded_length(f->body + to, to - from) : 0;
    // 3 bytes: attributes, timestamp delta, header count; the key's length -1 is one byte
    const size_t record_bytes = plain ? 3 + varint_size(count) + 1 + varint_size((int32_t)value_bytes) + value_bytes : 0;
    const size_t needed = plain ? varint_size((int32_t)record_bytes) + record_bytes : 0;
    // positions are Int32 on the scanner's side: a batch that would come near 2 GiB is for it to refuse, by the
    // scanner's own bound
    if (!plain || value_bytes > INT_MAX || written + record_bytes + RECORD_FRAMING_BYTES_MAX > INT_MAX) {
      state[STATE_AT] = (int32_t)at, state[STATE_WRITTEN] = (int32_t)written, state[STATE_COUNT] = count;
      return OTHER;
    }
    if (written + needed > f->data_length) {
      state[STATE_AT] = (int32_t)at, state[STATE_WRITTEN] = (int32_t)written, state[STATE_COUNT] = count;
      state[STATE_NEEDED] = (int32_t)needed;
      return DATA_FULL;
    }
    uint8_t *out = f->data + written;
    out = write_varint(out, (int32_t)record_bytes);
    *out++ = 0;  // attributes
    *out++ = 0;  // timestamp delta
    out = write_varint(out, count);
    out = write_varint(out, -1);  // no key
    out = write_varint(out, (int32_t)value_bytes);
    if (!decode_span_avx2(f->body + from, to - from, out)) {
      if (guessed) {
        guess = SIZE_MAX;
        continue;
      }
      // not base64: the scanner reads this record itself (and refuses the body)
      state[STATE_AT] = (int32_t)at, state[STATE_WRITTEN] = (int32_t)written, state[STATE_COUNT] = count;
      return OTHER;
    }
    f->key_at[count] = -1;
    f->key_length[count] = -1;
    f->value_at[count] = (int32_t)(out - f->data);
    f->value_length[count] = (int32_t)value_bytes;
    out += value_bytes;
    *out++ = 0;  // header count
    written = (size_t)(out - f->data);
    count++;
    guess = to - from;
    at = skip_space(f->body, to + 2, f->body_length);
    if (at >= f->body_length || f->body[at] != ',') {
      state[STATE_AT] = (int32_t)(to + 2), state[STATE_WRITTEN] = (int32_t)written, state[STATE_COUNT] = count;
      return AFTER_RECORD;
    }
    at = skip_space(f->body, at + 1, f->body_length);
  }
}

static napi_value FramePlainRecords(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  const char *usage =
      "framePlainRecords expects (body: Uint8Array, data: Uint8Array, keyAt, keyLength, valueAt, valueLength, state: "
      "Int32Array)";
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 7) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  Frame f;
  void *body, *data, *columns[4], *state_bytes;
  size_t column_lengths[4], state_length;
  bool typed = get_typed_array(env, argv[0], napi_uint8_array, &body, &f.body_length) &&
               get_typed_array(env, argv[1], napi_uint8_array, &data, &f.data_length) &&
               get_typed_array(env, argv[6], napi_int32_array, &state_bytes, &state_length);
  for (int i = 0; i < 4 && typed; i++)
    typed = get_typed_array(env, argv[2 + i], napi_int32_array, &columns[i], &column_lengths[i]);
  if (!typed) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  int32_t *state = (int32_t *)state_bytes;
  if (state_length < STATE_FIELDS || state[STATE_AT] < 0 || (size_t)state[STATE_AT] > f.body_length ||
      state[STATE_WRITTEN] < 0 || (size_t)state[STATE_WRITTEN] > f.data_length || state[STATE_COUNT] < 0) {
    napi_throw_range_error(env, NULL, "framePlainRecords: the state lies outside the body or the data");
    return NULL;
  }
  // Positions are Int32: the loop never writes past 2 GiB, and a body longer than that is the scanner's to refuse.
  if (f.data_length > INT_MAX) f.data_length = INT_MAX;
  napi_value result;
  if (f.body_length > INT_MAX) {
    napi_create_int32(env, OTHER, &result);
    return result;
  }
  f.body = (const uint8_t *)body;
  f.data = (uint8_t *)data;
  f.key_at = (int32_t *)columns[0];
  f.key_length = (int32_t *)columns[1];
  f.value_at = (int32_t *)columns[2];
  f.value_length = (int32_t *)columns[3];
  f.columns = column_lengths[0];
  for (int i = 1; i < 4; i++)
    if (column_lengths[i] < f.columns) f.columns = column_lengths[i];
  napi_create_int32(env, frame_records(&f, state), &result);
  return result;
}

NAPI_MODULE_INIT() {
  if (!base64_init()) {
    napi_throw_error(env, NULL, "this CPU has no AVX2");
    return NULL;
  }
  napi_value fn;
  napi_create_function(env, "framePlainRecords", NAPI_AUTO_LENGTH, FramePlainRecords, NULL, &fn);
  napi_set_named_property(env, exports, "framePlainRecords", fn);
  return exports;
}
