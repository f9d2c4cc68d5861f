// 256-entry tables looked up for 64 bytes at a time with AVX-512 VBMI byte permutes: each byte
// of an entry is a table of 256 bytes held in four 64-byte registers, read by two permutes
// over its 128-byte halves, the index's top bit picking the half. No memory lookups, where
// scalar loops load one entry at a time. CPU only; callers check CpuHasAvx512Vbmi() first.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_WORD_TABLE_AVX512_H_
#define TFGPUAUG_CC_KERNELS_COMMON_WORD_TABLE_AVX512_H_

#include <cstdint>

#include "cc/kernels/common/simd_x86.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

namespace tfgpuaug {

// One byte of a 256-entry table: entries 0-63, 64-127, 128-191, 192-255.
struct ByteTable {
  __m512i part[4];
};

// The table of 256 bytes at `bytes`.
TFGPUAUG_AVX512 inline ByteTable ByteTableAt(const uint8_t* bytes) {
  ByteTable t;
  for (int k = 0; k < 4; ++k) t.part[k] = _mm512_loadu_si512(bytes + 64 * k);
  return t;
}

// table[v] for each of the 64 bytes v.
TFGPUAUG_AVX512 inline __m512i LookUpBytes(const ByteTable& t, __m512i v) {
  const __m512i low = _mm512_permutex2var_epi8(t.part[0], v, t.part[1]);
  const __m512i high = _mm512_permutex2var_epi8(t.part[2], v, t.part[3]);
  return _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), low, high);
}

// The tables below come as byte planes: byte j of entry i at bytes[256 j + i] for the entry's
// low `planes` bytes (made once by TableBytePlanes, so no call splits its table).
template <typename Word>
void TableBytePlanes(const Word* table, int planes, uint8_t* bytes) {
  for (int j = 0; j < planes; ++j)
    for (int i = 0; i < 256; ++i) bytes[256 * j + i] = static_cast<uint8_t>(table[i] >> (8 * j));
}

// planes[k * stride + i] = table[src[i * c + k]] for channels k < 3 of n pixels of c (3 or 4)
// channels, a table of 16-bit words (two byte planes); the channels past 2 go to no plane.
void WordTablePlanesAvx512(const uint8_t* word_bytes, const uint8_t* src, int n, int c, int stride,
                           int* planes);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS

#endif  // TFGPUAUG_CC_KERNELS_COMMON_WORD_TABLE_AVX512_H_
