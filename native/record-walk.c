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

#include "record-walk.h"
#include "typed-array.h"

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
  int64_t failed = walk_records(data, (int64_t)length, count, keys_required);
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
