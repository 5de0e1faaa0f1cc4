// CRC-32C (Castagnoli, reflected, init and final xor 0xFFFFFFFF: the checksum of Kafka's record batches) with the
// SSE4.2 crc32 instruction on three interleaved streams, as a Node-API addon.
//
// One crc32 instruction has a latency of 3 cycles and a throughput of 1 per cycle, so a single dependent chain
// runs at a third of what the unit can do. The buffer is cut into runs of three blocks of BLOCK bytes; each block
// gets its own chain (the three run in parallel), and the three partial states are joined with the CRC's
// linearity: feeding block B after a state s equals shift_n(s) xor crc(0, B), where shift_n (feeding n zero bytes)
// is a linear map of the 32-bit state, applied here with four byte tables computed at load time.
//
// Exports crc32c(bytes: Uint8Array): number (unsigned), or nothing usable when the CPU lacks SSE4.2 (the module
// then throws on load and the JavaScript side keeps its portable implementation).
#include <nmmintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <node_api.h>

#define BLOCK 4096

static uint32_t shift1[4][256]; /* feeding BLOCK zero bytes */
static uint32_t shift2[4][256]; /* feeding 2 * BLOCK zero bytes */

static uint32_t feed(uint32_t state, const uint8_t *data, size_t length) {
  uint64_t s = state;
  while (length >= 8) {
    uint64_t word;
    memcpy(&word, data, 8);
    s = _mm_crc32_u64(s, word);
    data += 8;
    length -= 8;
  }
  uint32_t s32 = (uint32_t)s;
  while (length > 0) {
    s32 = _mm_crc32_u8(s32, *data++);
    length--;
  }
  return s32;
}

static uint32_t feed_zeros(uint32_t state, size_t count) {
  uint64_t s = state;
  for (size_t i = 0; i < count / 8; i++) s = _mm_crc32_u64(s, 0);
  return (uint32_t)s;
}

static void build_shift_table(uint32_t table[4][256], size_t zeros) {
  uint32_t bit[32];
  for (int i = 0; i < 32; i++) bit[i] = feed_zeros(1u << i, zeros);
  for (int k = 0; k < 4; k++) {
    for (int b = 0; b < 256; b++) {
      uint32_t v = 0;
      for (int j = 0; j < 8; j++)
        if (b & (1 << j)) v ^= bit[8 * k + j];
      table[k][b] = v;
    }
  }
}

static inline uint32_t shift(uint32_t table[4][256], uint32_t s) {
  return table[0][s & 0xff] ^ table[1][(s >> 8) & 0xff] ^ table[2][(s >> 16) & 0xff] ^ table[3][s >> 24];
}

static uint32_t crc32c(const uint8_t *data, size_t length) {
  uint32_t state = 0xffffffffu;
  while (length >= 3 * BLOCK) {
    uint64_t a = state, b = 0, c = 0;
    const uint8_t *pa = data, *pb = data + BLOCK, *pc = data + 2 * BLOCK;
    for (size_t i = 0; i < BLOCK; i += 8) {
      uint64_t wa, wb, wc;
      memcpy(&wa, pa + i, 8);
      memcpy(&wb, pb + i, 8);
      memcpy(&wc, pc + i, 8);
      a = _mm_crc32_u64(a, wa);
      b = _mm_crc32_u64(b, wb);
      c = _mm_crc32_u64(c, wc);
    }
    state = shift(shift2, (uint32_t)a) ^ shift(shift1, (uint32_t)b) ^ (uint32_t)c;
    data += 3 * BLOCK;
    length -= 3 * BLOCK;
  }
  return feed(state, data, length) ^ 0xffffffffu;
}

static napi_value Crc32c(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) {
    napi_throw_type_error(env, NULL, "crc32c expects a Uint8Array");
    return NULL;
  }
  bool is_typed = false;
  napi_is_typedarray(env, argv[0], &is_typed);
  if (!is_typed) {
    napi_throw_type_error(env, NULL, "crc32c expects a Uint8Array");
    return NULL;
  }
  napi_typedarray_type type;
  size_t length;
  void *data;
  napi_value arraybuffer;
  size_t offset;
  if (napi_get_typedarray_info(env, argv[0], &type, &length, &data, &arraybuffer, &offset) != napi_ok ||
      type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "crc32c expects a Uint8Array");
    return NULL;
  }
  napi_value result;
  napi_create_uint32(env, crc32c((const uint8_t *)data, length), &result);
  return result;
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
  build_shift_table(shift1, BLOCK);
  build_shift_table(shift2, 2 * BLOCK);
}

NAPI_MODULE_INIT() {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("sse4.2")) {
    napi_throw_error(env, NULL, "this CPU has no SSE4.2 crc32 instruction");
    return NULL;
  }
  /* once per process: each worker thread that loads the addon runs this init */
  pthread_once(&tables_once, build_tables);
  napi_value fn;
  napi_create_function(env, "crc32c", NAPI_AUTO_LENGTH, Crc32c, NULL, &fn);
  napi_set_named_property(env, exports, "crc32c", fn);
  return exports;
}
