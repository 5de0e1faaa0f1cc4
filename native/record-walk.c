// walkRecords: the walk over every record of a client's record batch that src/partition-log/record-batch-validation.ts
// does before the log takes the batch (Kafka's LogValidator), as a Node-API addon: the same checks, byte for byte, on
// the records section (uncompressed, or decompressed by the caller):
//   - exactly `count` records fill the section, each exactly its stated length (a zig-zag varint of at most 5
//     bytes, >= 1);
//   - in each: attributes (one byte), a timestamp delta (a varlong of at most 10 bytes, only skipped), an offset delta
//     equal to the record's index, a key length >= -1 (-1, no key, refused when `keysRequired`), a value length >=
//     -1, a header count in [0, record length], and each header's key length >= 0 and value length >= -1, every
//     length within the record.
//
// walkRecords(body: Uint8Array, count: number, keysRequired: boolean): number
// returns -1 when every check holds, else the index of the record where the first check failed (`count`, or 0 when
// it is negative, for well-formed records followed by more bytes). It names no reason: on a failure the caller walks
// the batch again in JavaScript, which throws the error that names it (a refused batch is rare; an accepted one is
// every produce). Arguments of the wrong type throw a TypeError.
#include <stdint.h>

#include "typed-array.h"

#define VARINT_MAX_BYTES 10
#define VARINT_MAX_SHIFT 28

typedef struct {
  const uint8_t *body;
  int64_t position;
} Walk;

/* A zig-zag varint that must fit 31 bits, below `limit`; false when it runs past the limit or is too long. Bits past
 * the 32nd are dropped and the result is the 32-bit pattern, as the JavaScript walk's `|` and `<<` give it. */
static bool varint(Walk *walk, int64_t limit, int32_t *value) {
  uint32_t raw = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (shift > VARINT_MAX_SHIFT || walk->position >= limit) return false;
    uint8_t byte = walk->body[walk->position++];
    raw |= (uint32_t)(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) break;
  }
  *value = (int32_t)((raw >> 1) ^ (0u - (raw & 1)));
  return true;
}

/* Whether record `index` starting at walk->position is well formed; the position is then at its end. */
static bool walk_record(Walk *walk, int64_t end, int64_t index, bool keys_required) {
  int32_t length, offset_delta, key_length, value_length, headers;
  if (!varint(walk, end, &length) || length < 1) return false;
  int64_t record_end = walk->position + length;
  if (record_end > end) return false;
  walk->position++; /* attributes */
  for (int i = 0;; i++) {
    if (walk->position >= record_end || i >= VARINT_MAX_BYTES) return false;
    if ((walk->body[walk->position++] & 0x80) == 0) break;
  }
  if (!varint(walk, record_end, &offset_delta) || offset_delta != index) return false;
  if (!varint(walk, record_end, &key_length)) return false;
  if (key_length == -1) {
    if (keys_required) return false;
  } else if (key_length < -1 || (walk->position += key_length) > record_end) {
    return false;
  }
  if (!varint(walk, record_end, &value_length) || value_length < -1) return false;
  if (value_length > 0 && (walk->position += value_length) > record_end) return false;
  if (!varint(walk, record_end, &headers) || headers < 0 || headers > length) return false;
  for (int32_t h = 0; h < headers; h++) {
    int32_t header_key_length, header_value_length;
    if (!varint(walk, record_end, &header_key_length) || header_key_length < 0) return false;
    if ((walk->position += header_key_length) > record_end) return false;
    if (!varint(walk, record_end, &header_value_length) || header_value_length < -1) return false;
    if (header_value_length > 0 && (walk->position += header_value_length) > record_end) return false;
  }
  return walk->position == record_end;
}

static napi_value WalkRecords(napi_env env, napi_callback_info info) {
  static const char *usage = "walkRecords expects (Uint8Array, count: number, keysRequired: boolean)";
  size_t argc = 3;
  napi_value argv[3];
  void *data;
  size_t length;
  int64_t count;
  bool keys_required;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 ||
      !get_typed_array(env, argv[0], napi_uint8_array, &data, &length) ||
      napi_get_value_int64(env, argv[1], &count) != napi_ok ||
      napi_get_value_bool(env, argv[2], &keys_required) != napi_ok) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  Walk walk = {.body = data, .position = 0};
  int64_t end = (int64_t)length;
  int64_t failed = -1;
  for (int64_t index = 0; index < count; index++) {
    if (!walk_record(&walk, end, index, keys_required)) {
      failed = index;
      break;
    }
  }
  if (failed < 0 && walk.position != end) failed = count < 0 ? 0 : count;
  napi_value result;
  napi_create_int64(env, failed, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "walkRecords", NAPI_AUTO_LENGTH, WalkRecords, NULL, &fn);
  napi_set_named_property(env, exports, "walkRecords", fn);
  return exports;
}
