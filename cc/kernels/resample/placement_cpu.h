// The padding of a placed resize's output (CPU); the resampler writes the visible rectangle.
#ifndef TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_
#define TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cc/kernels/common/stream_store.h"
#include "cc/kernels/resample/placement.h"
#include "cc/kernels/resample/resample.h"

namespace tfgpuaug {

// The padding pixel: `pad_value` is in input pixel units (0..255), so it goes through the
// same epilogue as the image (normalised per channel when the resize normalises) and the
// padding looks the same whether or not a normalisation was fused into this pass.
template <typename T>
void PaddingPixel(float pad_value, const Epilogue& e, int c, T* pixel) {
  for (int k = 0; k < c; ++k) {
    const float v = ApplyEpilogue(e, pad_value, k);
    if constexpr (std::is_same<T, uint8_t>::value) {
      pixel[k] = SaturateToUint8(v);
    } else {
      pixel[k] = static_cast<T>(v);
    }
  }
}

// Fills the output [out_h, out_w, c] with `pixel` (c values) outside the visible rectangle
// (which the resampler writes in place, rows out_w * c elements apart). Large outputs are
// written with streaming stores (see stream_store.h); a pixel whose channels differ (a
// normalised padding colour) is copied from a run of 64 pixels, in whole runs.
template <typename T>
void FillPadding(const VisibleRect& v, int out_h, int out_w, int c, const T* pixel, T* out) {
  const size_t row = size_t(out_w) * c;
  const bool uniform = std::all_of(pixel, pixel + c, [&](T x) { return x == pixel[0]; });
  const bool stream = UseStreamStores(row * out_h * sizeof(T));
  constexpr size_t kRunPixels = 64;
  std::vector<T> run;
  const size_t run_elems = kRunPixels * size_t(c);
  if (!uniform) {
    run.resize(run_elems);
    for (size_t k = 0; k < run_elems; ++k) run[k] = pixel[k % c];
  }
  auto fill = [&](T* first, T* last) {
    if (uniform) {
      if (stream) {
        StreamFill(first, pixel[0], size_t(last - first));
      } else {
        std::fill(first, last, pixel[0]);
      }
      return;
    }
    for (T* p = first; p < last; p += run_elems) {  // spans are whole pixels
      const size_t bytes = std::min(run_elems, size_t(last - p)) * sizeof(T);
      if (stream) {
        StreamCopy(p, run.data(), bytes);
      } else {
        std::memcpy(p, run.data(), bytes);
      }
    }
  };
  for (int y = 0; y < out_h; ++y) {
    T* o = out + y * row;
    if (y < v.y0 || y >= v.y1) {
      fill(o, o + row);
      continue;
    }
    fill(o, o + size_t(v.x0) * c);
    fill(o + size_t(v.x1) * c, o + row);
  }
  if (stream) StreamFence();
}

// Where the visible rectangle starts in the output.
template <typename T>
T* VisibleOrigin(const VisibleRect& v, int out_w, int c, T* out) {
  return out + (size_t(v.y0) * out_w + v.x0) * c;
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_RESAMPLE_PLACEMENT_CPU_H_
