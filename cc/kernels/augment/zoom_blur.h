// Albumentations' ZoomBlur, stated as OpenCV runs it: the image as floats v / 255, plus for each
// zoom factor z in numpy's arange(1, max_factor, step) the central crop of ceil(side / z) rows
// and columns resized by cv2.resize (INTER_LINEAR, float32: its own code's taps, not IPP's)
// to int(crop z) and trimmed back to the image's size, averaged, clipped to [0, 1] and rounded
// to bytes. Zooms run from the centre outward, so the result is a radial blur.
// Inline math shared by the CPU loops and the CUDA kernel: the same float operations in the
// same order on both (contraction is off in both builds), so the bytes agree.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

// The most zooms a sample may have: each is a resampling pass over the image.
constexpr int kMostZooms = 256;

// The largest max_factor a sample may have (a crop of a 64th of a side).
constexpr double kLargestZoom = 64.0;

// How many factors numpy's arange(1.0, max_factor, step) holds: ceil((max_factor - 1) / step),
// at most kMostZooms. A step that is not above 0, or a max_factor above kLargestZoom (or NaN),
// gives none: the sample is left as it is (the Python API refuses such ranges beforehand).
TFGPUAUG_HD int ZoomCount(double max_factor, double step) {
  if (!(step > 0.0) || !(max_factor <= kLargestZoom)) return 0;
  const double n = ceil((max_factor - 1.0) / step);
  return n > 0.0 ? (n < kMostZooms ? static_cast<int>(n) : kMostZooms) : 0;
}

// Factor k of that arange: numpy fills start + k (start + step - start).
TFGPUAUG_HD double ZoomFactor(double step, int k) {
  const double delta = (1.0 + step) - 1.0;
  return k == 0 ? 1.0 : 1.0 + k * delta;
}

// One axis of one zoom: the crop's first index and size, how far into the resized crop the
// image's first row or column falls, and cv2.resize's source step (crop / resized).
struct ZoomAxis {
  int top, crop, trim;
  double scale;
};

// Albumentations' central_zoom along a side of `size`: crop ceil(size / z) at (size - crop) // 2,
// resized to int(crop z), trimmed by (resized - size) // 2. A resize that comes out shorter
// than the side (a float edge where Albumentations raises) repeats its last row or column.
TFGPUAUG_HD ZoomAxis ZoomAxisOf(int size, double factor) {
  ZoomAxis a;
  a.crop = static_cast<int>(ceil(size / factor));
  a.top = (size - a.crop) >> 1;  // size >= crop: the factor is at least 1
  const int resized = static_cast<int>(a.crop * factor);
  a.trim = resized >= size ? (resized - size) >> 1 : 0;
  a.scale = 1.0 / (static_cast<double>(resized) / a.crop);
  return a;
}

// Output index d's two source indices (in the image) and cv2's float weights: fx = (float)((d +
// trim + 0.5) scale - 0.5), its floor and fraction, clamped to the crop with weight 0 beyond.
struct ZoomTap {
  int first, second;
  float w0, w1;
};

TFGPUAUG_HD ZoomTap ZoomTapAt(const ZoomAxis& a, int d) {
  float f = static_cast<float>((d + a.trim + 0.5) * a.scale - 0.5);
  int s = static_cast<int>(floorf(f));
  f -= static_cast<float>(s);
  if (s < 0) s = 0, f = 0.f;
  if (s >= a.crop - 1) s = a.crop - 1, f = 0.f;
  ZoomTap t;
  t.first = a.top + s;
  t.second = a.top + (s + 1 < a.crop ? s + 1 : s);
  t.w0 = 1.f - f;
  t.w1 = f;
  return t;
}

// The float Albumentations works in: a byte over 255.
TFGPUAUG_HD float ZoomUnit(uint8_t v) { return static_cast<float>(v) / 255.f; }

// One resampled value: each source row across (x0 w0 + x1 w1), then the two rows down.
TFGPUAUG_HD float ZoomBilinear(float a00, float a01, float a10, float a11, const ZoomTap& x,
                               const ZoomTap& y) {
  const float top = a00 * x.w0 + a01 * x.w1;
  const float bottom = a10 * x.w0 + a11 * x.w1;
  return top * y.w0 + bottom * y.w1;
}

// The output byte: (v + the zooms' sum) / (zooms + 1), clipped to [0, 1], times 255, rounded
// half to even (np.rint).
TFGPUAUG_HD uint8_t ZoomBlurByte(float unit, float sum, int zooms) {
  float t = (unit + sum) / static_cast<float>(zooms + 1);
  t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
  return static_cast<uint8_t>(rintf(t * 255.f));
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_H_
