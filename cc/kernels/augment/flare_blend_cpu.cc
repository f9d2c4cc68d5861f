#include "cc/kernels/augment/flare_blend_cpu.h"

#include "cc/kernels/augment/flare_blend.h"
#include "cc/kernels/augment/separable_blur_cpu.h"

namespace tfgpuaug {

size_t FlareBlendScratchFloats(int h, int w, int taps) {
  return 3 * size_t(h) * w + SeparableBlurScratchFloats(h, w, taps);
}

void FlareBlendCpu(const uint8_t* image, int h, int w, const float* layer, int sun_x, int sun_y,
                   const float* kernels, int taps, float* scratch, uint8_t* out) {
  const size_t per = size_t(h) * w;
  float* fade = scratch;
  float* faded = fade + per;
  float* blurred = faded + per;
  const double reach = FlareFadeReach(h, w);
  for (int y = 0; y < h; ++y) {  // once for the three channels
    for (int x = 0; x < w; ++x) fade[size_t(y) * w + x] = FlareFade(x, y, sun_x, sun_y, reach);
  }
  for (int c = 0; c < 3; ++c) {
    const float* plane = layer + c * per;
    for (size_t i = 0; i < per; ++i) faded[i] = plane[i] * fade[i];
    SeparableBlurCpu(faded, h, w, kernels + size_t(c) * taps, taps, blurred + per, blurred);
    const uint8_t* in = image + c;
    uint8_t* o = out + c;
    for (size_t i = 0; i < per; ++i) o[3 * i] = FlareScreenByte(in[3 * i], blurred[i]);
  }
}

}  // namespace tfgpuaug
