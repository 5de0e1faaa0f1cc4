// The record walk of a client's record batch (Kafka's LogValidator checks, see record-walk.c for the list), shared
// by record-walk.c (walkRecords, on the JavaScript thread) and crc32c.c (writevChecked, in the thread-pool job that
// also checks the CRC and writes the batch). Header-only: each addon compiles its own copy.
#ifndef BROOK_RECORD_WALK_H
#define BROOK_RECORD_WALK_H

#include <stdbool.h>
#include <stdint.h>

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

/* -1 when the `count` records of `body` (its `length` bytes) pass every check, else the index of the record where
 * the first check failed (`count`, or 0 when it is negative, for well-formed records followed by more bytes). */
static int64_t walk_records(const uint8_t *body, int64_t length, int64_t count, bool keys_required) {
  Walk walk = {.body = body, .position = 0};
  for (int64_t index = 0; index < count; index++) {
    if (!walk_record(&walk, length, index, keys_required)) return index;
  }
  return walk.position != length ? (count < 0 ? 0 : count) : -1;
}

#endif
