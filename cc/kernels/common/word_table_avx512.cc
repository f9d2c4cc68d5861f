#include "cc/kernels/common/word_table_avx512.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

namespace tfgpuaug {

TFGPUAUG_AVX512 void WordTablePlanesAvx512(const uint8_t* word_bytes, const uint8_t* src, int n, int c,
                                           int stride, int* planes) {
  const ByteTable low = ByteTableAt(word_bytes), high = ByteTableAt(word_bytes + 256);
  // For channel k, the permute that makes 32-bit lane i from byte c i + k of the looked-up low
  // bytes (indices 0-63) and of the high ones (64-127); the lane's upper two bytes are zeroed.
  __m512i pick[3];
  for (int k = 0; k < 3; ++k) {
    alignas(64) uint8_t idx[64] = {};
    for (int i = 0; i < 16; ++i) {
      idx[4 * i] = static_cast<uint8_t>(c * i + k);
      idx[4 * i + 1] = static_cast<uint8_t>(64 + c * i + k);
    }
    pick[k] = _mm512_load_si512(idx);
  }
  const __mmask64 lane_low_bytes = 0x3333333333333333ULL;
  for (int i = 0; i < n; i += 16) {
    const int m = n - i < 16 ? n - i : 16;
    const int bytes = m * c;  // at most 64
    const __mmask64 in = bytes == 64 ? ~__mmask64{0} : (__mmask64{1} << bytes) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(in, src + size_t(i) * c);
    const __m512i lo = LookUpBytes(low, v), hi = LookUpBytes(high, v);
    const __mmask16 out = static_cast<__mmask16>((1u << m) - 1);
    for (int k = 0; k < 3; ++k) {
      _mm512_mask_storeu_epi32(planes + size_t(k) * stride + i, out,
                               _mm512_maskz_permutex2var_epi8(lane_low_bytes, lo, pick[k], hi));
    }
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
