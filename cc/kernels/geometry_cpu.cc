#include "cc/kernels/geometry_cpu.h"

#include <cstring>

namespace tfgpuaug {

void CropMirrorNormalizeCpu(const uint8_t* image, const CmnParams& p, int y0, int x0, bool mirror,
                            const float* mean, const float* inv_std, void* out) {
  if (!p.nchw && p.type == OutputType::kFloat32 && p.channels == 3 && p.out_channels == 3) {
    // Common case as a straight loop: NHWC float32 RGB, one read and one write per element.
    float* o = static_cast<float*>(out);
    const float m0 = mean[0], m1 = mean[1], m2 = mean[2];
    const float s0 = inv_std[0], s1 = inv_std[1], s2 = inv_std[2];
    for (int y = 0; y < p.crop_h; ++y) {
      const uint8_t* row = image + (size_t(y0 + y) * p.in_w + x0) * 3;
      if (mirror) {
        for (int x = p.crop_w - 1; x >= 0; --x, o += 3) {
          o[0] = (row[3 * x] - m0) * s0;
          o[1] = (row[3 * x + 1] - m1) * s1;
          o[2] = (row[3 * x + 2] - m2) * s2;
        }
      } else {
        for (int x = 0; x < p.crop_w; ++x, o += 3) {
          o[0] = (row[3 * x] - m0) * s0;
          o[1] = (row[3 * x + 1] - m1) * s1;
          o[2] = (row[3 * x + 2] - m2) * s2;
        }
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

namespace {

template <int C, Interpolation I>
void WarpAffineLoop(const uint8_t* image, const AffineParams& params, const float* matrix,
                    uint8_t* out) {
  // Local copies: uint8_t stores may alias anything, so reading the parameters through
  // pointers would reload them after every output byte.
  const AffineParams p = params;
  const float m[6] = {matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]};
  const int c = C > 0 ? C : p.channels;
  const uint8_t fill = SaturateToUint8(p.fill);
  for (int y = 0; y < p.out_h; ++y)
    for (int x = 0; x < p.out_w; ++x, out += c)
      AffineBlend<C, I>(image, p, AffineLocate<I>(p, m, c, y, x), fill, out);
}

template <Interpolation I>
void WarpAffineChannels(const uint8_t* image, const AffineParams& p, const float* matrix,
                        uint8_t* out) {
  switch (p.channels) {
    case 1: return WarpAffineLoop<1, I>(image, p, matrix, out);
    case 3: return WarpAffineLoop<3, I>(image, p, matrix, out);
    case 4: return WarpAffineLoop<4, I>(image, p, matrix, out);
    default: return WarpAffineLoop<0, I>(image, p, matrix, out);
  }
}

}  // namespace

void WarpAffineCpu(const uint8_t* image, const AffineParams& p, const float* matrix, uint8_t* out) {
  // Specialised per channel count and interpolation so the per-pixel code unrolls.
  if (p.interpolation == Interpolation::kNearest) {
    WarpAffineChannels<Interpolation::kNearest>(image, p, matrix, out);
  } else {
    WarpAffineChannels<Interpolation::kBilinear>(image, p, matrix, out);
  }
}

}  // namespace tfgpuaug
