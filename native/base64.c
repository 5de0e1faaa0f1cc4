// decodeSpans: standard base64 decoding of many spans of one body in one call, as a Node-API addon: the decoder of
// the REST Proxy v2 binary produce scanner (v2-binary-body.ts). The decoding itself, and which texts are valid, are
// in base64-decode.h.
//
// Exports decodeSpans(body: Uint8Array, data: Uint8Array, spans: Int32Array, count: number): boolean. Span i is
// spans[3i] (from), spans[3i + 1] (to), spans[3i + 2] (into): the text body[from, to) is decoded into data at
// `into`, exactly its decoded length (3/4 of the text, less one byte per '='). Returns false as soon as a span is not
// valid base64 (data is then partly written); spans outside body or data are a caller's error and throw. The module
// refuses to load on a CPU without AVX2 (the JavaScript decoder is then used).
#include "base64-decode.h"
#include "typed-array.h"

static napi_value DecodeSpans(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  const char *usage = "decodeSpans expects (Uint8Array, Uint8Array, Int32Array, count)";
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  void *body, *data, *spans;
  size_t body_length, data_length, spans_length;
  uint32_t count;
  if (!get_typed_array(env, argv[0], napi_uint8_array, &body, &body_length) ||
      !get_typed_array(env, argv[1], napi_uint8_array, &data, &data_length) ||
      !get_typed_array(env, argv[2], napi_int32_array, &spans, &spans_length) ||
      napi_get_value_uint32(env, argv[3], &count) != napi_ok) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  if ((size_t)count * 3 > spans_length) {
    napi_throw_range_error(env, NULL, "decodeSpans: count exceeds the spans given");
    return NULL;
  }
  const int32_t *span = (const int32_t *)spans;
  bool valid = true;
  for (uint32_t i = 0; i < count && valid; i++) {
    const int32_t from = span[3 * i], to = span[3 * i + 1], into = span[3 * i + 2];
    if (from < 0 || to < from || (size_t)to > body_length || into < 0 || (size_t)into > data_length) {
      napi_throw_range_error(env, NULL, "decodeSpans: a span lies outside the body or the data");
      return NULL;
    }
    const size_t length = (size_t)(to - from);
    if (length % 4 != 0) {
      valid = false;
      break;
    }
    const uint8_t *in = (const uint8_t *)body + from;
    if ((size_t)into + decoded_length(in + length, length) > data_length) {
      napi_throw_range_error(env, NULL, "decodeSpans: a span's bytes do not fit in the data");
      return NULL;
    }
    valid = decode_span_avx2(in, length, (uint8_t *)data + into);
  }
  napi_value result;
  napi_get_boolean(env, valid, &result);
  return result;
}

NAPI_MODULE_INIT() {
  if (!base64_init()) {
    napi_throw_error(env, NULL, "this CPU has no AVX2");
    return NULL;
  }
  napi_value fn;
  napi_create_function(env, "decodeSpans", NAPI_AUTO_LENGTH, DecodeSpans, NULL, &fn);
  napi_set_named_property(env, exports, "decodeSpans", fn);
  return exports;
}
