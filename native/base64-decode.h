// Standard base64 (RFC 4648 alphabet A-Z a-z 0-9 + /, '=' padding) decoding with AVX2, shared by Brook's addons
// for the REST Proxy v2 binary produce scanner: base64.c (decodeSpans) and v2-plain-records.c (framePlainRecords).
//
// A text is valid exactly when the scanner's JavaScript decoder (src/http/v2-binary/base64-spans.ts) takes it: a length
// that is a multiple of 4; every character of every group but the last in the alphabet; in the last group the first
// two in the alphabet and then either two more, or one and '=', or '=='. The unused low bits of the last character
// before the padding are not checked (they are dropped). Any other byte, '=' elsewhere and bytes >= 0x80 make it
// invalid.
//
// The AVX2 step takes 32 characters (8 groups) to 24 bytes: each byte is classified by range tests (one add and one
// signed compare each; bytes >= 0x80 fall in no range) and equality, the class's offset added to give its value,
// pairs of values joined into 12 bits (maddubs) and pairs of those into 24 bits (madd), the three bytes of each
// 32-bit lane put in big-endian order by a shuffle, and the 12 bytes of each 128-bit half made contiguous by a
// permute. It runs while 32 characters remain before the last group; the rest is decoded a group at a time. An
// addon including this file calls base64_init() when it loads and refuses to load on a CPU without AVX2.
#ifndef BROOK_BASE64_DECODE_H
#define BROOK_BASE64_DECODE_H

#include <immintrin.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define BASE64_PAD '='

/* The 6-bit value of each alphabet character, -1 for every other byte. */
static int8_t sextet[256];

static void build_sextet_table(void) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  memset(sextet, -1, sizeof sextet);
  for (int i = 0; i < 64; i++) sextet[(uint8_t)alphabet[i]] = (int8_t)i;
}

/* The constants of decode32, one 32-byte row each, read from memory as operands (GCC otherwise rebuilds them from
 * immediates in the loop). A range [low, low + width) is moved to start at -128 (add 0x80 - low) and then is the
 * signed bytes below -128 + width; width <= 0x80 - low, so bytes >= 0x80 never land in it. */
enum {
  UPPER_SHIFT,
  UPPER_BELOW,
  LOWER_SHIFT,
  LOWER_BELOW,
  DIGIT_SHIFT,
  DIGIT_BELOW,
  PLUS,
  SLASH,
  UPPER_OFFSET,
  LOWER_OFFSET,
  DIGIT_OFFSET,
  PLUS_OFFSET,
  SLASH_OFFSET,
  CONSTANTS
};
static const int8_t constant_bytes[CONSTANTS] = {
    [UPPER_SHIFT] = (int8_t)(0x80 - 'A'),
    [UPPER_BELOW] = -128 + 26,
    [LOWER_SHIFT] = (int8_t)(0x80 - 'a'),
    [LOWER_BELOW] = -128 + 26,
    [DIGIT_SHIFT] = (int8_t)(0x80 - '0'),
    [DIGIT_BELOW] = -128 + 10,
    [PLUS] = '+',
    [SLASH] = '/',
    [UPPER_OFFSET] = -65,       /* A-Z (65..90) -> 0..25 */
    [LOWER_OFFSET] = -71,       /* a-z (97..122) -> 26..51 */
    [DIGIT_OFFSET] = 4,         /* 0-9 (48..57) -> 52..61 */
    [PLUS_OFFSET] = 62 - '+',   /* '+' -> 62 */
    [SLASH_OFFSET] = 63 - '/',  /* '/' -> 63 */
};
/* constant_bytes[i] in all 32 bytes of constants[i], filled at load */
static __m256i constants[CONSTANTS] __attribute__((aligned(32)));

static void build_constants(void) {
  for (int i = 0; i < CONSTANTS; i++) memset(&constants[i], (uint8_t)constant_bytes[i], sizeof constants[i]);
}

#define IN_RANGE(c, shift, below) _mm256_cmpgt_epi8(constants[below], _mm256_add_epi8((c), constants[shift]))

/* Decodes 32 alphabet characters at `in` into 24 bytes at `out`; false (nothing written) when one is not. */
__attribute__((target("avx2"))) static inline bool decode32(const uint8_t *in, uint8_t *out) {
  const __m256i c = _mm256_loadu_si256((const __m256i *)in);
  const __m256i upper = IN_RANGE(c, UPPER_SHIFT, UPPER_BELOW);
  const __m256i lower = IN_RANGE(c, LOWER_SHIFT, LOWER_BELOW);
  const __m256i digit = IN_RANGE(c, DIGIT_SHIFT, DIGIT_BELOW);
  const __m256i plus = _mm256_cmpeq_epi8(c, constants[PLUS]);
  const __m256i slash = _mm256_cmpeq_epi8(c, constants[SLASH]);
  const __m256i valid = _mm256_or_si256(_mm256_or_si256(upper, lower), _mm256_or_si256(_mm256_or_si256(digit, plus), slash));
  if ((uint32_t)_mm256_movemask_epi8(valid) != 0xffffffffu) return false;
  /* the 6-bit value: c plus its class's offset */
  __m256i offset = _mm256_and_si256(upper, constants[UPPER_OFFSET]);
  offset = _mm256_or_si256(offset, _mm256_and_si256(lower, constants[LOWER_OFFSET]));
  offset = _mm256_or_si256(offset, _mm256_and_si256(digit, constants[DIGIT_OFFSET]));
  offset = _mm256_or_si256(offset, _mm256_and_si256(plus, constants[PLUS_OFFSET]));
  offset = _mm256_or_si256(offset, _mm256_and_si256(slash, constants[SLASH_OFFSET]));
  const __m256i values = _mm256_add_epi8(c, offset);
  /* bytes a b c d of each group -> 16-bit (a << 6 | b), (c << 6 | d) -> 32-bit a << 18 | b << 12 | c << 6 | d */
  const __m256i pairs = _mm256_maddubs_epi16(values, _mm256_set1_epi32(0x01400140));
  const __m256i groups = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
  const __m256i ordered = _mm256_shuffle_epi8(
      groups, _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14,
                               13, 12, -1, -1, -1, -1));
  const __m256i packed = _mm256_permutevar8x32_epi32(ordered, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
  /* exactly 24 bytes, so that nothing after this span's place in data is touched */
  _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(packed));
  _mm_storel_epi64((__m128i *)(out + 16), _mm256_extracti128_si256(packed, 1));
  return true;
}

/* The decoded length of a valid text of `length` characters ending at `end` (a multiple of 4), as the scanner
 * reserves it. */
static size_t decoded_length(const uint8_t *end, size_t length) {
  size_t padding = 0;
  if (length > 0 && end[-1] == BASE64_PAD) padding++;
  if (length > 1 && end[-2] == BASE64_PAD) padding++;
  return length / 4 * 3 - padding;
}

/* Decodes in[0, length) (a multiple of 4) to out; false when it is not valid base64. */
__attribute__((target("avx2"))) static bool decode_span_avx2(const uint8_t *in, size_t length, uint8_t *out) {
  if (length == 0) return true;
  const uint8_t *last = in + length - 4;
  while (last - in >= 32) {
    if (!decode32(in, out)) return false;
    in += 32;
    out += 24;
  }
  for (; in < last; in += 4) {
    const int32_t a = sextet[in[0]], b = sextet[in[1]], c = sextet[in[2]], d = sextet[in[3]];
    if ((a | b | c | d) < 0) return false;
    const uint32_t bits = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
    out[0] = (uint8_t)(bits >> 16);
    out[1] = (uint8_t)(bits >> 8);
    out[2] = (uint8_t)bits;
    out += 3;
  }
  const int32_t a = sextet[last[0]], b = sextet[last[1]];
  if ((a | b) < 0) return false;
  if (last[3] == BASE64_PAD) {
    if (last[2] == BASE64_PAD) {
      out[0] = (uint8_t)(a << 2 | b >> 4);
      return true;
    }
    const int32_t c = sextet[last[2]];
    if (c < 0) return false;
    const uint32_t bits = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6;
    out[0] = (uint8_t)(bits >> 16);
    out[1] = (uint8_t)(bits >> 8);
    return true;
  }
  const int32_t c = sextet[last[2]], d = sextet[last[3]];
  if ((c | d) < 0) return false;
  const uint32_t bits = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
  out[0] = (uint8_t)(bits >> 16);
  out[1] = (uint8_t)(bits >> 8);
  out[2] = (uint8_t)bits;
  return true;
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void) {
  build_sextet_table();
  build_constants();
}

/* Fills the tables once per process (each worker thread that loads an addon runs its init); false when this CPU has
 * no AVX2 (the addon must then refuse to load). */
static bool base64_init(void) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2")) return false;
  pthread_once(&tables_once, build_tables);
  return true;
}

#endif
