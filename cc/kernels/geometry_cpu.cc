#include "cc/kernels/geometry_cpu.h"

#include <cstring>

namespace tfgpuaug {

void CropMirrorNormalizeCpu(const uint8_t* image, const CmnParams& p, int y0, int x0, bool mirror,
                            const float* mean, const float* inv_std, void* out) {
  if (!p.nchw && p.type == OutputType::kFloat32) {
    // Common case as a straight loop: NHWC float32, one read and one write per element.
    float* o = static_cast<float*>(out);
    for (int y = 0; y < p.crop_h; ++y) {
      const uint8_t* row = image + (size_t(y0 + y) * p.in_w) * p.channels;
      for (int x = 0; x < p.crop_w; ++x) {
        const uint8_t* px = row + size_t(mirror ? x0 + p.crop_w - 1 - x : x0 + x) * p.channels;
        for (int k = 0; k < p.channels; ++k) *o++ = (px[k] - mean[k]) * inv_std[k];
        for (int k = p.channels; k < p.out_channels; ++k) *o++ = 0.f;
      }
    }
    return;
  }
  for (int y = 0; y < p.crop_h; ++y)
    for (int x = 0; x < p.crop_w; ++x)
      for (int k = 0; k < p.out_channels; ++k)
        CmnStore(out, CmnOutputIndex(p, y, x, k), p.type,
                 CmnValue(image, p, y0, x0, mirror, mean, inv_std, y, x, k));
}

void FlipCpu(const uint8_t* image, int h, int w, int c, size_t element_bytes, bool horizontal,
             bool vertical, uint8_t* out) {
  const size_t pixel = size_t(c) * element_bytes, row = pixel * w;
  for (int y = 0; y < h; ++y) {
    const uint8_t* src = image + size_t(FlipSource(y, h, vertical)) * row;
    uint8_t* dst = out + size_t(y) * row;
    if (!horizontal) {
      std::memcpy(dst, src, row);
      continue;
    }
    for (int x = 0; x < w; ++x) std::memcpy(dst + x * pixel, src + (w - 1 - x) * pixel, pixel);
  }
}

void WarpAffineCpu(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out) {
  for (int y = 0; y < p.out_h; ++y)
    for (int x = 0; x < p.out_w; ++x)
      for (int k = 0; k < p.channels; ++k)
        *out++ = AffineSample(image, p, matrix, y, x, k);
}

}  // namespace tfgpuaug
