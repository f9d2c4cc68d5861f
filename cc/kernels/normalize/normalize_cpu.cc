#include "cc/kernels/normalize/normalize_cpu.h"

#include "cc/kernels/common/simd_x86.h"
#include "cc/kernels/common/stream_store.h"

namespace tfgpuaug {

void CropMirrorNormalizeCpu(const uint8_t* image, const CropMirrorNormalizeParams& p, int y0, int x0,
                            bool mirror, const float* mean, const float* inv_std, void* out) {
  if (!p.nchw && p.type == OutputType::kFloat32 && p.channels == 3 && p.out_channels == 3) {
    // Common case as a straight loop: NHWC float32 RGB, one read and one write per element;
    // a large output row by row through an L1 buffer, then with streaming stores.
    float* dst = static_cast<float*>(out);
    const float m0 = mean[0], m1 = mean[1], m2 = mean[2];
    const float s0 = inv_std[0], s1 = inv_std[1], s2 = inv_std[2];
    const int w = p.crop_w;
    StreamedRows<float> out_rows(size_t(w) * 3, p.crop_h);
    for (int y = 0; y < p.crop_h; ++y, dst += size_t(w) * 3) {
      float* o = out_rows.Begin(dst);
      const uint8_t* row = image + (size_t(y0 + y) * p.in_w + x0) * 3;
      auto scalar = [&](int j) {
        const uint8_t* px = row + 3 * (mirror ? w - 1 - j : j);
        o[3 * j] = (px[0] - m0) * s0;
        o[3 * j + 1] = (px[1] - m1) * s1;
        o[3 * j + 2] = (px[2] - m2) * s2;
      };
      int j = 0;
#if TFGPUAUG_HAVE_SSE2
      // Output pixels 1 .. w-2 as four lanes: their 4-byte loads and 16-byte stores stay
      // inside the row (lane 3 spills onto a neighbour that is written afterwards or was
      // read already). The same subtract and multiply per lane as the scalar code.
      const __m128 vm = _mm_setr_ps(m0, m1, m2, 0.f), vs = _mm_setr_ps(s0, s1, s2, 0.f);
      scalar(0);
      for (j = 1; j + 1 < w; ++j) {
        const uint8_t* px = row + 3 * (mirror ? w - 1 - j : j);
        _mm_storeu_ps(o + 3 * j, _mm_mul_ps(_mm_sub_ps(LoadPixel4(px), vm), vs));
      }
      if (w > 1) scalar(w - 1);
#else
      for (; j < w; ++j) scalar(j);
#endif
      out_rows.End(dst);
    }
    return;
  }
  for (int y = 0; y < p.crop_h; ++y)
    for (int x = 0; x < p.crop_w; ++x)
      for (int k = 0; k < p.out_channels; ++k)
        CropMirrorNormalizeStore(out, CropMirrorNormalizeOutputIndex(p, y, x, k), p.type,
                                 CropMirrorNormalizeValue(image, p, y0, x0, mirror, mean, inv_std, y, x, k));
}

}  // namespace tfgpuaug
