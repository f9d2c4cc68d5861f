#include "cc/kernels/augment/clahe_avx512.h"

#if TFGPUAUG_HAVE_AVX2_LOOPS

#include <cstddef>

// GCC 12's AVX-512 intrinsics start from an "undefined" register that -Wmaybe-uninitialized
// reports as read before set (a known false positive of its headers); nothing here reads one.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace tfgpuaug {
namespace {

TFGPUAUG_AVX512 inline __m512i Mul(__m512i a, int b) { return _mm512_mullo_epi32(a, _mm512_set1_epi32(b)); }
TFGPUAUG_AVX512 inline __m512i Add(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
TFGPUAUG_AVX512 inline __m512i AddConst(__m512i a, int b) {
  return _mm512_add_epi32(a, _mm512_set1_epi32(b));
}
TFGPUAUG_AVX512 inline __m512i Clamp(__m512i v, int lo, int hi) {
  return _mm512_min_epi32(_mm512_max_epi32(v, _mm512_set1_epi32(lo)), _mm512_set1_epi32(hi));
}
// lab_detail::Descale: rounded at bit N by an arithmetic shift.
template <int N>
TFGPUAUG_AVX512 inline __m512i Descale(__m512i x) {
  return _mm512_srai_epi32(AddConst(x, 1 << (N - 1)), N);
}

// lab_detail::XzFromF on sixteen lanes. f * 108 / 841 (C division, toward zero) is the float
// quotient truncated: |f * 108| < 2^24 is exact in float, and a quotient that is not whole is at
// least 1/841 from the next whole number.
TFGPUAUG_AVX512 inline __m512i XzFromF(__m512i f) {
  const __m512 q = _mm512_div_ps(_mm512_cvtepi32_ps(Mul(f, 108)), _mm512_set1_ps(841.f));
  const __m512i linear = AddConst(_mm512_cvttps_epi32(q), -290);
  const __m512i cube =
      _mm512_srai_epi32(_mm512_mullo_epi32(_mm512_srai_epi32(_mm512_mullo_epi32(f, f), 14), f), 14);
  return _mm512_mask_blend_epi32(_mm512_cmpgt_epi32_mask(f, _mm512_set1_epi32(3390)), linear, cube);
}

// A byte permute that takes byte `first + 3 i` of a row into the low byte of 32-bit lane i.
TFGPUAUG_AVX512 inline __m512i EveryThirdByte(int first) {
  alignas(64) uint8_t idx[64] = {};
  for (int i = 0; i < 16; ++i) idx[4 * i] = static_cast<uint8_t>(first + 3 * i);
  return _mm512_load_si512(idx);
}

}  // namespace

TFGPUAUG_AVX512 void ClaheRgbIndicesAvx512(const uint8_t* lab_row, const int* light_y_f, int n, int stride,
                                           int* rgb_index) {
  const __m512i pick_a = EveryThirdByte(1), pick_b = EveryThirdByte(2);
  const __mmask64 lane_low = 0x1111111111111111ULL, row_bytes = (__mmask64{1} << 48) - 1;
  const __m512i low_half = _mm512_set1_epi32(0xffff);
  for (int x0 = 0; x0 < n; x0 += 16) {
    const __m512i row = _mm512_maskz_loadu_epi8(row_bytes, lab_row + size_t(x0) * 3);
    const __m512i a = _mm512_maskz_permutexvar_epi8(lane_low, pick_a, row);
    const __m512i b = _mm512_maskz_permutexvar_epi8(lane_low, pick_b, row);
    const __m512i both = _mm512_loadu_si512(light_y_f + x0);
    const __m512i yy = _mm512_srli_epi32(both, 16), fy = _mm512_and_si512(both, low_half);
    const __m512i a_term =
        AddConst(_mm512_srai_epi32(AddConst(Mul(a, 5 * 53687), 1 << 7), 13), -(128 * 16384 / 500));
    const __m512i b_term =
        AddConst(_mm512_srai_epi32(AddConst(Mul(b, 41943), 1 << 4), 9), -(128 * 16384 / 200) + 1);
    const __m512i xx = XzFromF(Add(fy, a_term)), zz = XzFromF(_mm512_sub_epi32(fy, b_term));
    _mm512_storeu_si512(
        rgb_index + x0,
        Clamp(Descale<14>(Add(Add(Mul(xx, 12615), Mul(yy, -6296)), Mul(zz, -2223))), 0, 4095));
    _mm512_storeu_si512(rgb_index + stride + x0,
                        Clamp(Descale<14>(Add(Add(Mul(xx, -3773), Mul(yy, 7684)), Mul(zz, 185))), 0, 4095));
    _mm512_storeu_si512(rgb_index + 2 * stride + x0,
                        Clamp(Descale<14>(Add(Add(Mul(xx, 217), Mul(yy, -836)), Mul(zz, 4715))), 0, 4095));
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_HAVE_AVX2_LOOPS
