// reduceMemory: what an idle broker calls once per idle period (src/common/idle-memory-reducer.ts) to hand memory
// back to the system, as a Node-API addon in C++ (the V8 calls it needs have no Node-API or JavaScript form):
//   1. a young-generation collection (a scavenge): after a quiet spell V8's allocation rate is low, and a scavenge
//      then shrinks the semi-spaces (up to 2 x 16 MB after load) to their minimum. The only API for a scavenge is
//      RequestGarbageCollectionForTesting, which V8 allows under --expose-gc only: the flag is set for that one call
//      and cleared again (Node leaves V8's flags writable after start; the flag only decides whether contexts
//      created while it is set get a `gc` global, and none is created during the call). When the process already
//      runs with --expose-gc (`gcExposed`), it is left as it is.
//      Or, when `full` (the reducer asks for it when the old generation grew a lot since the last mark-compact:
//      garbage a busy start-up or a recovery left, which an idle broker never collects), a memory-reducing full
//      collection instead (LowMemoryNotification: mark-compacts that also evacuate sparse pages and give the free
//      ones back; it shrinks the young generation as the scavenge would). Left alone, such a collection sets the old
//      generation's limit from V8's growing factor for the allocation rate it measured, which at idle is its floor:
//      live size x 1.1 (heap-controller.cc, V8 11.3: a low rate next to the GC's speed gives the floor; a
//      memory-reducing one takes the floor anyway), below the young generation's capacity once load returns, and V8
//      then starts incremental marking after every mark-compact (W1: 8-49 mark-compacts a broker instead of 2; see
//      BENCHMARKS.md, "the slow mode"). So V8's growing factor is pinned for the call with --heap-growing-percent
//      (`growingPercent`, which overrides the factor in every mode) and set back to `launchGrowingPercent` (the
//      percent in force before: the old-generation budget's, src/common/old-generation-budget.ts, or the process's
//      launch value, 0 = V8's dynamic factor) after it: the limit it leaves is the one a mark-compact under load
//      gets. Measured on a broker restarted after kill -9 with 10,000 partitions, 25 s idle: heap 239 -> 81 MB,
//      resident 330 -> 172 MB, limit 335 MB (factor 4; unpinned: 93 MB).
//   2. malloc_trim(0): glibc gives the free pages inside its arenas back (the main arena's brk heap and the
//      threads' arenas, where freed request bodies and socket reads stay resident otherwise).
//
// reduceMemory(gcExposed: boolean, full?: boolean, growingPercent?: number, launchGrowingPercent?: number): boolean
//   true when malloc_trim released something
//
// limitMallocArenas(count): boolean   glibc's M_ARENA_MAX (mallopt), called before the threads allocate (see
// src/common/malloc-arenas.ts): each thread that mallocs under contention otherwise gets an arena of its own (up to
// 8 a core), and freed memory in each stays resident apart from the others'; true when glibc accepted it.
#include <malloc.h>
#include <node_api.h>
#include <v8.h>

#include <string>

static void SetGrowingPercent(int32_t percent) {
  std::string flag = "--heap-growing-percent=" + std::to_string(percent);
  v8::V8::SetFlagsFromString(flag.c_str(), flag.size());
}

static napi_value ReduceMemory(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  bool gc_exposed = false;
  bool full = false;
  int32_t growing_percent = 0;
  int32_t launch_growing_percent = 0;
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc >= 1) napi_get_value_bool(env, argv[0], &gc_exposed);
  if (argc >= 2) napi_get_value_bool(env, argv[1], &full);
  if (argc >= 3) napi_get_value_int32(env, argv[2], &growing_percent);
  if (argc >= 4) napi_get_value_int32(env, argv[3], &launch_growing_percent);
  v8::Isolate *isolate = v8::Isolate::GetCurrent();
  if (isolate != nullptr && full) {
    if (growing_percent > 0) SetGrowingPercent(growing_percent);
    isolate->LowMemoryNotification();
    if (growing_percent > 0) SetGrowingPercent(launch_growing_percent);
  } else if (isolate != nullptr) {
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
