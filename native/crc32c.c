// CRC-32C (Castagnoli, reflected, init and final xor 0xFFFFFFFF: the checksum of Kafka's record batches) with the
// SSE4.2 crc32 instruction on three interleaved streams, as a Node-API addon.
//
// One crc32 instruction has a latency of 3 cycles and a throughput of 1 per cycle, so a single dependent chain
// runs at a third of what the unit can do. The buffer is cut into runs of three blocks of BLOCK bytes; each block
// gets its own chain (the three run in parallel), and the three partial states are joined with the CRC's
// linearity: feeding block B after a state s equals shift_n(s) xor crc(0, B), where shift_n (feeding n zero bytes)
// is a linear map of the 32-bit state, applied here with four byte tables computed at load time.
//
// Exports crc32c(bytes: Uint8Array): number (unsigned), and writevChecked (below), or nothing usable when the CPU
// lacks SSE4.2 (the module then throws on load and the JavaScript side keeps its portable implementation).
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <nmmintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <node_api.h>
#include <uv.h>

#include "record-walk.h"

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

// writevChecked(fd: number, buffers: Buffer[], position: number, check: number[], walk?: number[]):
//   Promise<number[]>
//
// One job in libuv's thread pool (where fs.writev would run) for a log append: first the CRC-32C of each batch
// whose index is in `check` is compared with the CRC its header carries (a Kafka record batch: CRC big-endian at
// byte 17, covering byte 21 to the end), and the records of each of those batches i with walk[i] > 0 (an uncompressed client
// batch; 2: every record must have a key) are walked (record-walk.h, the checks of walkRecords) after its CRC
// passed; if any fails, nothing is written and the promise resolves to the indexes of the corrupt batches. Otherwise the buffers are written end to end at `position` with pwritev
// (repeated after a short write or EINTR, IOV_MAX buffers a call) and the promise resolves to [] once the kernel has
// taken every byte; a failed write rejects with an Error as fs makes it: message "<code>: <libuv's text>, write",
// code (EIO, ENOSPC, ...), errno (negative) and syscall 'write'. The job holds a reference to the array of buffers
// (not to each buffer): the caller must not change the array until the promise settles.
//
// The first argument may be the file's path instead of a descriptor (a log segment whose file the handle pool does
// not hold open, src/partition-log/log-segment.ts): the job then opens the file for writing after the check passed
// (O_WRONLY, no O_CREAT: it must exist), writes, and closes it, all on the pool thread. A failed open rejects as fs
// does ("<code>: <libuv's text>, open '<path>'", syscall 'open', path); a failed close after a complete write
// rejects with syscall 'close'. The descriptor lives only during the job, so the open files beyond the handle pool's
// bound are at most one per thread-pool thread.
//
// The CRC thus runs on a thread-pool thread right before the write instead of on the JavaScript thread while the
// write is in flight: on a machine with few cores the two rarely ran in parallel anyway, and the write's copy into
// the page cache then reads bytes the CRC just brought into the cache.

#ifndef IOV_MAX
#define IOV_MAX 1024 /* Linux's UIO_MAXIOV */
#endif
#define CRC_AT 17
#define ATTRIBUTES_AT 21
#define RECORD_COUNT_AT 57
#define RECORDS_AT 61

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref buffers_ref; /* keeps the buffers alive until the job is done */
  int fd;
  char *path; /* the file to open for the job, or NULL to write to fd */
  const char *failed_syscall; /* "write", "open" or "close": what `error` came from */
  int64_t position;
  size_t count;
  struct iovec *iov;
  uint8_t *check;
  uint8_t *walk; /* per batch: 0 no walk, 1 walk, 2 walk with keys required */
  uint32_t *corrupt;
  size_t corrupt_count;
  int error; /* errno of a failed write, 0 when none */
} WriteJob;

static void free_job(napi_env env, WriteJob *job) {
  if (job->buffers_ref != NULL) napi_delete_reference(env, job->buffers_ref);
  if (job->work != NULL) napi_delete_async_work(env, job->work);
  free(job->path);
  free(job->iov);
  free(job->check);
  free(job->walk);
  free(job->corrupt);
  free(job);
}

/* Whether the records of an uncompressed batch pass the walk: exactly its record count, each well formed. */
static bool records_pass(const uint8_t *batch, size_t length, bool keys_required) {
  if (length < RECORDS_AT) return false;
  int32_t count = (int32_t)(((uint32_t)batch[RECORD_COUNT_AT] << 24) | ((uint32_t)batch[RECORD_COUNT_AT + 1] << 16) |
                            ((uint32_t)batch[RECORD_COUNT_AT + 2] << 8) | batch[RECORD_COUNT_AT + 3]);
  return walk_records(batch + RECORDS_AT, (int64_t)(length - RECORDS_AT), count, keys_required) < 0;
}

static void write_all(WriteJob *job);

static void execute_write(napi_env env, void *data) {
  (void)env;
  WriteJob *job = data;
  for (size_t i = 0; i < job->count; i++) {
    if (!job->check[i]) continue;
    const uint8_t *batch = job->iov[i].iov_base;
    size_t length = job->iov[i].iov_len;
    uint32_t stored = length < ATTRIBUTES_AT ? 0
                                             : ((uint32_t)batch[CRC_AT] << 24) | ((uint32_t)batch[CRC_AT + 1] << 16) |
                                                   ((uint32_t)batch[CRC_AT + 2] << 8) | batch[CRC_AT + 3];
    if (length < ATTRIBUTES_AT || crc32c(batch + ATTRIBUTES_AT, length - ATTRIBUTES_AT) != stored)
      job->corrupt[job->corrupt_count++] = (uint32_t)i;
    else if (job->walk[i] > 0 && !records_pass(batch, length, job->walk[i] == 2))
      job->corrupt[job->corrupt_count++] = (uint32_t)i;
  }
  if (job->corrupt_count > 0) return;
  job->failed_syscall = "write";
  if (job->path == NULL) {
    write_all(job);
    return;
  }
  do job->fd = open(job->path, O_WRONLY | O_CLOEXEC);
  while (job->fd < 0 && errno == EINTR);
  if (job->fd < 0) {
    job->error = errno;
    job->failed_syscall = "open";
    return;
  }
  write_all(job);
  if (close(job->fd) != 0 && job->error == 0 && errno != EINTR) {
    job->error = errno;
    job->failed_syscall = "close";
  }
}

/* pwritev until every byte of the iovecs is written at job->position, or job->error is set */
static void write_all(WriteJob *job) {
  size_t first = 0;
  while (first < job->count && job->iov[first].iov_len == 0) first++; /* nothing to write: done */
  int64_t position = job->position;
  while (first < job->count) {
    size_t n = job->count - first;
    if (n > IOV_MAX) n = IOV_MAX;
    ssize_t written = pwritev(job->fd, job->iov + first, (int)n, position);
    if (written < 0) {
      if (errno == EINTR) continue;
      job->error = errno;
      return;
    }
    if (written == 0) {
      job->error = EIO;
      return;
    }
    position += written;
    /* skip what was written: whole buffers, then the start of a partly written one */
    size_t left = (size_t)written;
    while (first < job->count && left >= job->iov[first].iov_len) {
      left -= job->iov[first].iov_len;
      first++;
    }
    if (left > 0) {
      job->iov[first].iov_base = (uint8_t *)job->iov[first].iov_base + left;
      job->iov[first].iov_len -= left;
    }
    while (first < job->count && job->iov[first].iov_len == 0) first++;
  }
}

static void complete_write(napi_env env, napi_status status, void *data) {
  WriteJob *job = data;
  napi_value result;
  if (status != napi_ok) {
    napi_value message;
    napi_create_string_utf8(env, "checked write cancelled", NAPI_AUTO_LENGTH, &message);
    napi_create_error(env, NULL, message, &result);
    napi_reject_deferred(env, job->deferred, result);
  } else if (job->error != 0) {
    napi_value message, code, errno_value, syscall;
    const char *name = uv_err_name(-job->error);
    char text[4352];
    if (job->path != NULL && strcmp(job->failed_syscall, "open") == 0)
      snprintf(text, sizeof text, "%s: %s, open '%s'", name, uv_strerror(-job->error), job->path);
    else
      snprintf(text, sizeof text, "%s: %s, %s", name, uv_strerror(-job->error), job->failed_syscall);
    napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message);
    napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, message, &result);
    napi_create_int32(env, -job->error, &errno_value);
    napi_set_named_property(env, result, "errno", errno_value);
    napi_create_string_utf8(env, job->failed_syscall, NAPI_AUTO_LENGTH, &syscall);
    napi_set_named_property(env, result, "syscall", syscall);
    if (job->path != NULL) {
      napi_value path;
      napi_create_string_utf8(env, job->path, NAPI_AUTO_LENGTH, &path);
      napi_set_named_property(env, result, "path", path);
    }
    napi_reject_deferred(env, job->deferred, result);
  } else {
    napi_create_array_with_length(env, job->corrupt_count, &result);
    for (size_t i = 0; i < job->corrupt_count; i++) {
      napi_value index;
      napi_create_uint32(env, job->corrupt[i], &index);
      napi_set_element(env, result, (uint32_t)i, index);
    }
    napi_resolve_deferred(env, job->deferred, result);
  }
  free_job(env, job);
}

static napi_value throw_type(napi_env env, WriteJob *job, const char *message) {
  if (job != NULL) free_job(env, job);
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static napi_value WritevChecked(napi_env env, napi_callback_info info) {
  static const char *usage = "writevChecked expects (fd or path, Buffer[], position, number[], number[]?)";
  size_t argc = 5;
  napi_value argv[5];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4) return throw_type(env, NULL, usage);
  int32_t fd = -1;
  char *path = NULL;
  napi_valuetype target_type = napi_undefined;
  napi_typeof(env, argv[0], &target_type);
  if (target_type == napi_string) {
    size_t path_length;
    if (napi_get_value_string_utf8(env, argv[0], NULL, 0, &path_length) != napi_ok || path_length == 0 ||
        path_length >= 4096)
      return throw_type(env, NULL, usage);
    path = malloc(path_length + 1);
    if (path == NULL) return throw_type(env, NULL, "out of memory");
    napi_get_value_string_utf8(env, argv[0], path, path_length + 1, &path_length);
  } else if (napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    return throw_type(env, NULL, usage);
  }
  double position;
  bool is_array = false, is_check_array = false;
  if (napi_get_value_double(env, argv[2], &position) != napi_ok || !(position >= 0) ||
      position > 9007199254740991.0 || napi_is_array(env, argv[1], &is_array) != napi_ok || !is_array ||
      napi_is_array(env, argv[3], &is_check_array) != napi_ok || !is_check_array)
  {
    free(path);
    return throw_type(env, NULL, usage);
  }
  uint32_t count, check_count;
  napi_get_array_length(env, argv[1], &count);
  napi_get_array_length(env, argv[3], &check_count);
  WriteJob *job = calloc(1, sizeof(WriteJob));
  if (job == NULL) {
    free(path);
    return throw_type(env, NULL, "out of memory");
  }
  job->fd = fd;
  job->path = path;
  job->failed_syscall = "write";
  job->position = (int64_t)position;
  job->count = count;
  job->iov = calloc(count > 0 ? count : 1, sizeof(struct iovec));
  job->check = calloc(count > 0 ? count : 1, 1);
  job->walk = calloc(count > 0 ? count : 1, 1);
  job->corrupt = calloc(count > 0 ? count : 1, sizeof(uint32_t));
  if (job->iov == NULL || job->check == NULL || job->walk == NULL || job->corrupt == NULL)
    return throw_type(env, job, "out of memory");
  for (uint32_t i = 0; i < count; i++) {
    napi_value element, arraybuffer;
    bool is_typed = false;
    napi_typedarray_type type;
    void *data;
    size_t length, offset;
    if (napi_get_element(env, argv[1], i, &element) != napi_ok ||
        napi_is_typedarray(env, element, &is_typed) != napi_ok || !is_typed ||
        napi_get_typedarray_info(env, element, &type, &length, &data, &arraybuffer, &offset) != napi_ok ||
        type != napi_uint8_array)
      return throw_type(env, job, usage);
    job->iov[i].iov_base = data;
    job->iov[i].iov_len = length;
  }
  for (uint32_t i = 0; i < check_count; i++) {
    napi_value element;
    uint32_t index;
    if (napi_get_element(env, argv[3], i, &element) != napi_ok ||
        napi_get_value_uint32(env, element, &index) != napi_ok || index >= count)
      return throw_type(env, job, usage);
    job->check[index] = 1;
  }
  napi_valuetype walk_type = napi_undefined;
  if (argc >= 5) napi_typeof(env, argv[4], &walk_type);
  if (walk_type != napi_undefined) {
    bool is_walk_array = false;
    uint32_t walk_count;
    if (napi_is_array(env, argv[4], &is_walk_array) != napi_ok || !is_walk_array ||
        napi_get_array_length(env, argv[4], &walk_count) != napi_ok || walk_count > count)
      return throw_type(env, job, usage);
    for (uint32_t i = 0; i < walk_count; i++) {
      napi_value element;
      uint32_t mode;
      if (napi_get_element(env, argv[4], i, &element) != napi_ok ||
          napi_get_value_uint32(env, element, &mode) != napi_ok || mode > 2)
        return throw_type(env, job, usage);
      job->walk[i] = (uint8_t)mode;
    }
  }
  napi_value promise, name;
  if (napi_create_reference(env, argv[1], 1, &job->buffers_ref) != napi_ok ||
      napi_create_promise(env, &job->deferred, &promise) != napi_ok)
    return throw_type(env, job, "writevChecked could not start");
  napi_create_string_utf8(env, "brook:writevChecked", NAPI_AUTO_LENGTH, &name);
  if (napi_create_async_work(env, NULL, name, execute_write, complete_write, job, &job->work) != napi_ok ||
      napi_queue_async_work(env, job->work) != napi_ok) {
    /* the promise is never settled then; throwing is what the caller sees */
    return throw_type(env, job, "writevChecked could not queue its job");
  }
  return promise;
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
  napi_create_function(env, "writevChecked", NAPI_AUTO_LENGTH, WritevChecked, NULL, &fn);
  napi_set_named_property(env, exports, "writevChecked", fn);
  return exports;
}
