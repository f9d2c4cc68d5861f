#include "cc/kernels/augment_cpu.h"

#include <cstring>
#include <string>

namespace tfgpuaug {
namespace {

void Histograms(const uint8_t* src, const AugmentImage& im, uint32_t* hist) {
  std::memset(hist, 0, sizeof(uint32_t) * 256 * im.c);
  const size_t n = size_t(im.h) * im.w;
  for (size_t i = 0; i < n; ++i)
    for (int k = 0; k < im.c; ++k) ++hist[k * 256 + src[i * im.c + k]];
}

// PIL: int(mean of the L image + 0.5); the L image of a gray image is itself.
int LumaMean(const uint8_t* src, const AugmentImage& im) {
  const size_t n = size_t(im.h) * im.w;
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = src + i * im.c;
    sum += im.c >= 3 ? RgbToLuma(p[0], p[1], p[2]) : p[0];
  }
  return static_cast<int>(double(sum) / double(n) + 0.5);
}

}  // namespace

void AugmentStageCpu(int op, float param, const float* aux, const uint8_t* src,
                     const AugmentImage& im, uint8_t* dst) {
  const size_t n = size_t(im.h) * im.w;
  if (op == int(AugmentOp::kIdentity)) {
    std::memcpy(dst, src, n * im.c);
    return;
  }
  if (IsLutOp(op)) {
    uint32_t hist[4 * 256];
    uint8_t lut[4 * 256];
    if (NeedsHistogram(op)) Histograms(src, im, hist);
    const int mean = NeedsLumaMean(op) ? LumaMean(src, im) : 0;
    for (int k = 0; k < im.c; ++k) BuildLut(op, param, hist + 256 * k, mean, lut + 256 * k);
    for (size_t i = 0; i < n; ++i)
      for (int k = 0; k < im.c; ++k) dst[i * im.c + k] = lut[256 * k + src[i * im.c + k]];
    return;
  }
  for (int y = 0; y < im.h; ++y)
    for (int x = 0; x < im.w; ++x)
      for (int k = 0; k < im.c; ++k)
        dst[(size_t(y) * im.w + x) * im.c + k] = AugmentPixel(op, param, aux, src, im, y, x, k);
}

Status AugmentSampleCpu(const uint8_t* in, const AugmentImage& im, const int32_t* ops,
                        const float* params, const float* aux, int num_stages, uint8_t* scratch,
                        uint8_t* out) {
  if (im.c > 4) return Status::Invalid("augment supports at most 4 channels");
  for (int k = 0; k < num_stages; ++k) {
    if (ops[k] < 0 || ops[k] >= int(AugmentOp::kNumOps)) {
      return Status::Invalid("unknown augmentation op id " + std::to_string(ops[k]));
    }
  }
  const size_t bytes = size_t(im.h) * im.w * im.c;
  if (num_stages == 0) {
    std::memcpy(out, in, bytes);
    return Status::Ok();
  }
  // Ping-pong so that the last stage writes `out`: stage k writes out when
  // (num_stages - 1 - k) is even, scratch otherwise.
  const uint8_t* src = in;
  for (int k = 0; k < num_stages; ++k) {
    uint8_t* dst = ((num_stages - 1 - k) % 2 == 0) ? out : scratch;
    AugmentStageCpu(ops[k], params[k], aux + 2 * k, src, im, dst);
    src = dst;
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
