// reduceMemory: what an idle broker calls once per idle period (src/common/idle-memory-reducer.ts) to hand memory
// back to the system, as a Node-API addon in C++ (the one V8 call it needs has no Node-API or JavaScript form):
//   1. v8::Isolate::LowMemoryNotification(): V8's memory-reducing full GC (the one a `gc()` is not: it also
//      shrinks the young generation's semi-spaces to their minimum and releases the old space's emptied pages);
//   2. malloc_trim(0): glibc gives the free pages inside its arenas back (the main arena's brk heap and the
//      threads' arenas, where freed request bodies and socket reads stay resident otherwise).
//
// reduceMemory(): boolean   true when malloc_trim released something
#include <malloc.h>
#include <node_api.h>
#include <v8.h>

static napi_value ReduceMemory(napi_env env, napi_callback_info info) {
  (void)info;
  v8::Isolate *isolate = v8::Isolate::GetCurrent();
  if (isolate != nullptr) isolate->LowMemoryNotification();
  int released = malloc_trim(0);
  napi_value result;
  napi_get_boolean(env, released != 0, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "reduceMemory", NAPI_AUTO_LENGTH, ReduceMemory, nullptr, &fn);
  napi_set_named_property(env, exports, "reduceMemory", fn);
  return exports;
}
