#include "cc/kernels/augment/flare_blend_cpu.h"

#include "cc/kernels/augment/flare_blend.h"
#include "cc/kernels/augment/separable_blur_cpu.h"

namespace tfgpuaug {

size_t FlareBlendScratchFloats(int h, int w, int flare_taps, int taps) {
  const int widest = flare_taps > taps ? flare_taps : taps;
  return 3 * size_t(h) * w + SeparableBlurScratchFloats(h, w, widest);
}

// A channel at a time in three planes of scratch (a 224x224 sample's fit in the L2 cache): no
// batch-sized float tensor is made between the steps.
void FlareBlendCpu(const uint8_t* image, int h, int w, const int32_t* layer, int sun_x, int sun_y,
                   const float* flare_kernel, int flare_taps, const float* kernels, int taps, float* scratch,
                   uint8_t* out) {
  const size_t per = size_t(h) * w;
  float* fade = scratch;
  float* plane = fade + per;
  float* blurred = plane + per;
  float* blur_scratch = blurred + per;
  const double reach = FlareFadeReach(h, w);
  for (int y = 0; y < h; ++y) {  // once for the three channels
    for (int x = 0; x < w; ++x) fade[size_t(y) * w + x] = FlareFade(x, y, sun_x, sun_y, reach);
  }
  for (int c = 0; c < 3; ++c) {
    for (size_t i = 0; i < per; ++i) plane[i] = FlareLayerChannel(layer[i], c);
    SeparableBlurCpu(plane, h, w, flare_kernel, flare_taps, blur_scratch, blurred);
    for (size_t i = 0; i < per; ++i) plane[i] = blurred[i] * fade[i];
    SeparableBlurCpu(plane, h, w, kernels + size_t(c) * taps, taps, blur_scratch, blurred);
    const uint8_t* in = image + c;
    uint8_t* o = out + c;
    for (size_t i = 0; i < per; ++i) o[3 * i] = FlareScreenByte(in[3 * i], blurred[i]);
  }
}

}  // namespace tfgpuaug
