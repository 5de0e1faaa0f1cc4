// Reading a typed array argument of a Node-API call, for Brook's addons.
#ifndef BROOK_TYPED_ARRAY_H
#define BROOK_TYPED_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <node_api.h>

/* The bytes and element count of `value` when it is a typed array of type `expected`; false otherwise. */
static bool get_typed_array(napi_env env, napi_value value, napi_typedarray_type expected, void **data,
                            size_t *length) {
  bool is_typed = false;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return false;
  napi_typedarray_type type;
  napi_value arraybuffer;
  size_t offset;
  if (napi_get_typedarray_info(env, value, &type, length, data, &arraybuffer, &offset) != napi_ok) return false;
  return type == expected;
}

#endif
