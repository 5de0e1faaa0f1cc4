// reduceMemory: what an idle broker calls once per idle period (src/common/idle-memory-reducer.ts) to hand memory
// back to the system, as a Node-API addon in C++ (the V8 call it needs has no Node-API or JavaScript form):
//   1. a young-generation collection (a scavenge): after a quiet spell V8's allocation rate is low, and a scavenge
//      then shrinks the semi-spaces (up to 2 x 16 MB after load) to their minimum. Never a full GC: a memory-reducing
//      mark-compact (LowMemoryNotification, MemoryPressureNotification) sets the old generation's limit to its live
//      size + ~10 MB, below the young generation's capacity once load returns, and V8 then starts incremental marking
//      after every mark-compact for the rest of the run (W1: 8-49 mark-compacts a broker instead of 2). The only API
//      for a scavenge is RequestGarbageCollectionForTesting, which V8 allows under --expose-gc only: the flag is set
//      for that one call and cleared again (Node leaves V8's flags writable after start; the flag only decides
//      whether contexts created while it is set get a `gc` global, and none is created during the call). When the
//      process already runs with --expose-gc (`gcExposed`), it is left as it is.
//   2. malloc_trim(0): glibc gives the free pages inside its arenas back (the main arena's brk heap and the
//      threads' arenas, where freed request bodies and socket reads stay resident otherwise).
//
// reduceMemory(gcExposed: boolean): boolean   true when malloc_trim released something
//
// limitMallocArenas(count): boolean   glibc's M_ARENA_MAX (mallopt), called before the threads allocate (see
// src/common/malloc-arenas.ts): each thread that mallocs under contention otherwise gets an arena of its own (up to
// 8 a core), and freed memory in each stays resident apart from the others'; true when glibc accepted it.
#include <malloc.h>
#include <node_api.h>
#include <v8.h>

static napi_value ReduceMemory(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  bool gc_exposed = false;
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc == 1) napi_get_value_bool(env, argv[0], &gc_exposed);
  v8::Isolate *isolate = v8::Isolate::GetCurrent();
  if (isolate != nullptr) {
    if (!gc_exposed) v8::V8::SetFlagsFromString("--expose-gc");
    isolate->RequestGarbageCollectionForTesting(v8::Isolate::kMinorGarbageCollection);
    if (!gc_exposed) v8::V8::SetFlagsFromString("--no-expose-gc");
  }
  int released = malloc_trim(0);
  napi_value result;
  napi_get_boolean(env, released != 0, &result);
  return result;
}

static napi_value LimitMallocArenas(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t count = 0;
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  bool accepted = false;
  if (argc == 1 && napi_get_value_int32(env, argv[0], &count) == napi_ok && count > 0)
    accepted = mallopt(M_ARENA_MAX, count) == 1;
  napi_value result;
  napi_get_boolean(env, accepted, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "reduceMemory", NAPI_AUTO_LENGTH, ReduceMemory, nullptr, &fn);
  napi_set_named_property(env, exports, "reduceMemory", fn);
  napi_create_function(env, "limitMallocArenas", NAPI_AUTO_LENGTH, LimitMallocArenas, nullptr, &fn);
  napi_set_named_property(env, exports, "limitMallocArenas", fn);
  return exports;
}
