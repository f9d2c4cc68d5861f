// Per-sample augmentations with PIL's semantics (ImageOps, ImageEnhance, Image.transform),
// as inline math shared by the CPU driver and the CUDA kernels.
//
// Each stage applies one operation per sample, chosen by an op id with one parameter in
// natural units (degrees, factors, pixels, bits, levels) and two uniform numbers `aux` for
// operations that need a random position or stream (cutout, noise).
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/augment/clahe.h"
#include "cc/kernels/augment/illumination.h"
#include "cc/kernels/common/border.h"
#include "cc/kernels/common/counter_hash.h"
#include "cc/kernels/common/host_device.h"
#include "cc/kernels/common/portable_math.h"
#include "cc/kernels/decode/pixel_convert.h"
#include "cc/kernels/warp/warp.h"

namespace tfgpuaug {

// The augmentation ops, in id order: the one table behind the enum, the names the library
// exports (TfGpuAug>AugmentOpNames) and Python's OP_IDS. Ids are stable: append only.
#define TFGPUAUG_AUGMENT_OPS(X)                                                                              \
  X(kIdentity, "identity")                                                                                   \
  X(kAutoContrast, "auto_contrast")                                                                          \
  X(kEqualize, "equalize")                                                                                   \
  X(kInvert, "invert")                                                                                       \
  X(kRotate, "rotate")            /* degrees, counter-clockwise, about the centre */                         \
  X(kPosterize, "posterize")      /* bits kept (0..8), rounded */                                            \
  X(kSolarize, "solarize")        /* threshold: invert pixels >= threshold */                                \
  X(kSolarizeAdd, "solarize_add") /* addition to pixels < 128 */                                             \
  X(kColor, "color")              /* ImageEnhance factors */                                                 \
  X(kContrast, "contrast")                                                                                   \
  X(kBrightness, "brightness")                                                                               \
  X(kSharpness, "sharpness")                                                                                 \
  X(kShearX, "shear_x") /* shear factor */                                                                   \
  X(kShearY, "shear_y")                                                                                      \
  X(kTranslateX, "translate_x") /* pixels */                                                                 \
  X(kTranslateY, "translate_y")                                                                              \
  X(kCutout, "cutout")                  /* square side in pixels, centre from aux */                         \
  X(kGrayscale, "grayscale")            /* parameter ignored */                                              \
  X(kHue, "hue")                        /* hue shift in turns (tf.image.adjust_hue's delta) */               \
  X(kSaturation, "saturation")          /* saturation factor (tf.image.adjust_saturation) */                 \
  X(kGaussianNoise, "gaussian_noise")   /* standard deviation in levels; stream from aux */                  \
  X(kGaussianBlur, "gaussian_blur")     /* sigma in pixels; reflect-101 border */                            \
  X(kGamma, "gamma")                    /* exponent: 255 (v / 255)^gamma, rounded */                         \
  X(kChannelShuffle, "channel_shuffle") /* permutation 0..5 of RGB, lexicographic */                         \
  X(kRgbShift, "rgb_shift")             /* red shift in levels; green, blue from aux */                      \
  X(kSharpen, "sharpen")                /* alpha 0..1; lightness 0.5 + aux[0] */                             \
  X(kEmboss, "emboss")                  /* alpha 0..1; strength 0.2 + aux[0] */                              \
  X(kMedianBlur, "median_blur")         /* window side, odd, 3..7; replicated border */                      \
  X(kMotionBlur, "motion_blur")         /* line length, 3..31 pixels; angle from aux[0] */                   \
  X(kDownscale, "downscale")            /* scale 0..1: nearest down, nearest up (OpenCV) */                  \
  X(kHsvShift, "hsv_shift")             /* hue shift in OpenCV's 2-degree steps; s, v shifts from aux */     \
  X(kToneCurve, "tone_curve")           /* Bezier y of the darks; lights aux[0]; channel aux[1] (<.5 all) */ \
  X(kIsoNoise, "iso_noise")             /* intensity; stream from aux[0], colour shift aux[1] */             \
  X(kClahe, "clahe")                    /* clip limit; tiles across aux[0], down aux[1] (<1: 8) */           \
  X(kSepia, "sepia")                    /* parameter ignored: Albumentations' ToSepia matrix on RGB */       \
  X(kChannelDropout, "channel_dropout") /* bit k of the rounded parameter drops channel k; level aux[1] */   \
  X(kPixelDropout, "pixel_dropout")     /* probability a pixel; stream aux[0]; level aux[1] (<0: random) */  \
  X(kPixelDropoutPerChannel, "pixel_dropout_per_channel") /* the same, each channel on its own */            \
  X(kSaltAndPepper, "salt_and_pepper") /* probability a pixel; stream aux[0]; salt share aux[1] */           \
  X(kDihedral, "dihedral")             /* bits: 4 transpose, then 2 flip x, 1 flip y (square images) */      \
  X(kBoxBlur, "box_blur")              /* window side, odd, 3..15; reflect-101 border (OpenCV's blur) */     \
  X(kMultiplicativeNoise, "multiplicative_noise") /* low factor; stream aux[0], high aux[1]; a pixel */      \
  X(kMultiplicativeNoisePerChannel, "multiplicative_noise_per_channel") /* the same, a factor a byte */      \
  X(kShotNoise, "shot_noise")             /* scale (1 / photons per unit of linear light); stream aux[0] */  \
  X(kChannelMultiply, "channel_multiply") /* factor of channel 0; channel 1 aux[0], 2 aux[1]; others 1 */    \
  X(kUniformNoise, "uniform_noise")       /* half width in levels; stream aux[0], centre aux[1]; a byte */   \
  X(kUniformNoiseShared, "uniform_noise_shared") /* the same, one value a pixel for all its channels */      \
  X(kNormalNoise, "normal_noise")                /* deviation in levels; stream aux[0], mean aux[1] */       \
  X(kNormalNoiseShared, "normal_noise_shared")   /* the same, one value a pixel */                           \
  X(kLaplaceNoise, "laplace_noise")              /* scale in levels; stream aux[0], location aux[1] */       \
  X(kLaplaceNoiseShared, "laplace_noise_shared") /* the same, one value a pixel */                           \
  X(kIlluminationLinear, "illumination_linear")  /* intensity (< 0: reversed); angle aux[0] in turns */      \
  X(kIlluminationCorner, "illumination_corner")  /* intensity; corner floor(4 aux[0]), clockwise from TL */  \
  X(kIlluminationGaussian, "illumination_gaussian") /* intensity; centre aux[0] packed, sigma aux[1] */

enum class AugmentOp : int {
#define TFGPUAUG_AUGMENT_ENUM(id, name) id,
  TFGPUAUG_AUGMENT_OPS(TFGPUAUG_AUGMENT_ENUM)
#undef TFGPUAUG_AUGMENT_ENUM
      kNumOps,
};
constexpr int kNumAugmentOps = int(AugmentOp::kNumOps);

// The op names, indexed by id (host code: the op library and the kernels module export them).
inline const char* const* AugmentOpNames() {
#define TFGPUAUG_AUGMENT_NAME(id, name) name,
  static const char* const names[] = {TFGPUAUG_AUGMENT_OPS(TFGPUAUG_AUGMENT_NAME)};
#undef TFGPUAUG_AUGMENT_NAME
  static_assert(sizeof(names) / sizeof(names[0]) == kNumAugmentOps, "one name per op");
  return names;
}

// Point operations become a per-channel lookup table.
TFGPUAUG_HD bool IsLutOp(int op) {
  return op == int(AugmentOp::kIdentity) || op == int(AugmentOp::kAutoContrast) ||
         op == int(AugmentOp::kEqualize) || op == int(AugmentOp::kInvert) ||
         op == int(AugmentOp::kPosterize) || op == int(AugmentOp::kSolarize) ||
         op == int(AugmentOp::kSolarizeAdd) || op == int(AugmentOp::kContrast) ||
         op == int(AugmentOp::kBrightness) || op == int(AugmentOp::kGamma) ||
         op == int(AugmentOp::kToneCurve) || op == int(AugmentOp::kChannelMultiply);
}

TFGPUAUG_HD bool IsAffineOp(int op) {
  return op == int(AugmentOp::kRotate) || op == int(AugmentOp::kShearX) || op == int(AugmentOp::kShearY) ||
         op == int(AugmentOp::kTranslateX) || op == int(AugmentOp::kTranslateY);
}

// Whether the stage needs per-channel histograms (equalize, auto_contrast) or the mean of
// the image's luma (contrast).
TFGPUAUG_HD bool NeedsHistogram(int op) {
  return op == int(AugmentOp::kEqualize) || op == int(AugmentOp::kAutoContrast);
}
TFGPUAUG_HD bool NeedsLumaMean(int op) { return op == int(AugmentOp::kContrast); }
// iso_noise needs the standard deviation of the image's HLS lightness: the sums of
// max + min of each pixel's RGB bytes and of its square.
TFGPUAUG_HD bool NeedsLightness(int op) { return op == int(AugmentOp::kIsoNoise); }
// clahe needs a lookup table per tile of the image (clahe.h), built before the pixels.
TFGPUAUG_HD bool NeedsTileLuts(int op) { return op == int(AugmentOp::kClahe); }

// v clamped to [0, 1]; NaN gives 0.
TFGPUAUG_HD float Clamped01(float v) { return v >= 0.f ? (v <= 1.f ? v : 1.f) : 0.f; }

// A byte times a factor as Albumentations' MultiplicativeNoise on uint8: the float product clipped
// to [0, 255] and truncated (NaN gives 0).
TFGPUAUG_HD uint8_t ScaledByte(uint8_t value, float factor) {
  const float t = float(value) * factor;
  return t >= 255.f ? 255 : (t > 0.f ? static_cast<uint8_t>(t) : 0);
}

// PIL's Image.blend of 8-bit images: float interpolation, truncated, clipped.
TFGPUAUG_HD uint8_t BlendPil(float from, float to, float alpha) {
  const float t = from + alpha * (to - from);
  return t <= 0.f ? 0 : (t >= 255.f ? 255 : static_cast<uint8_t>(t));
}

// Albumentations' RandomToneCurve: the cubic Bezier from (0, 0) to (1, 1) with control points
// (1/3, low) and (2/3, high) at t = i / 255 (numpy's linspace: i * (1 / 255), 1 at the end),
// times 255, rounded half to even and saturated. Double precision on both devices.
TFGPUAUG_HD void ToneCurveLut(float low, float high, uint8_t* lut) {
  const double lo = Clamped01(low), hi = Clamped01(high);
  for (int i = 0; i < 256; ++i) {
    const double t = i == 255 ? 1.0 : i * (1.0 / 255.0), u = 1.0 - t;
    const double v = (3.0 * (u * u) * t * lo + 3.0 * u * (t * t) * hi + t * t * t) * 255.0;
    const double r = rint(v);
    lut[i] = static_cast<uint8_t>(r <= 0.0 ? 0.0 : (r >= 255.0 ? 255.0 : r));
  }
}

// The one channel a tone_curve stage changes, from its second aux number: 1, 2, 3, 4 (rounded)
// name channel 0, 1, 2, 3 (Albumentations' per_channel, one stage per channel); below 0.5
// (or NaN): every channel.
TFGPUAUG_HD int ToneCurveChannel(float aux1) {
  if (!(aux1 >= 0.5f)) return -1;
  return aux1 >= 4.f ? 3 : static_cast<int>(aux1 + 0.5f) - 1;
}

// Lookup table of channel `channel` for a point operation. `hist` is that channel's 256-bin
// histogram (equalize, auto_contrast); `luma_mean` is PIL's rounded mean of the L image;
// `aux` the stage's two auxiliary numbers (tone_curve's second control point and channel).
TFGPUAUG_HD void BuildLut(int op, float param, const float* aux, int channel, const uint32_t* hist,
                          int luma_mean, uint8_t* lut) {
  switch (static_cast<AugmentOp>(op)) {
    case AugmentOp::kAutoContrast: {
      int lo = 0, hi = 255;
      while (lo < 256 && hist[lo] == 0) ++lo;
      while (hi >= 0 && hist[hi] == 0) --hi;
      if (hi <= lo) break;  // flat channel: identity, as PIL
      // Double precision, as PIL's Python arithmetic, so truncation lands identically.
      const double scale = 255.0 / (hi - lo), offset = -lo * scale;
      for (int i = 0; i < 256; ++i) {
        const int v = static_cast<int>(i * scale + offset);  // truncation, as PIL's int()
        lut[i] = static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
      }
      return;
    }
    case AugmentOp::kEqualize: {
      uint64_t total = 0, last = 0, nonzero = 0;
      for (int i = 0; i < 256; ++i) {
        if (hist[i] == 0) continue;
        total += hist[i];
        last = hist[i];
        ++nonzero;
      }
      const uint64_t step = nonzero <= 1 ? 0 : (total - last) / 255;
      if (step == 0) break;  // identity, as PIL
      uint64_t n = step / 2;
      for (int i = 0; i < 256; ++i) {
        const uint64_t v = n / step;
        lut[i] = static_cast<uint8_t>(v > 255 ? 255 : v);
        n += hist[i];
      }
      return;
    }
    case AugmentOp::kInvert:
      for (int i = 0; i < 256; ++i) lut[i] = static_cast<uint8_t>(255 - i);
      return;
    case AugmentOp::kChannelMultiply: {  // MultiplicativeNoise with a factor per channel of the image
      const float factor = channel == 0 ? param : (channel == 1 ? aux[0] : (channel == 2 ? aux[1] : 1.f));
      for (int i = 0; i < 256; ++i) lut[i] = ScaledByte(static_cast<uint8_t>(i), factor);
      return;
    }
    case AugmentOp::kPosterize: {
      const int bits = param < 0.f ? 0 : (param > 8.f ? 8 : static_cast<int>(param + 0.5f));
      const int mask = bits == 0 ? 0 : ~((1 << (8 - bits)) - 1) & 0xff;
      for (int i = 0; i < 256; ++i) lut[i] = static_cast<uint8_t>(i & mask);
      return;
    }
    case AugmentOp::kSolarize:
      for (int i = 0; i < 256; ++i) lut[i] = static_cast<uint8_t>(i < param ? i : 255 - i);
      return;
    case AugmentOp::kSolarizeAdd: {
      // Bounded before the cast (a float out of int's range, or NaN, is undefined behaviour
      // there): any addition past +-255 saturates the same; NaN adds nothing.
      const float bounded =
          param >= -256.f ? (param <= 256.f ? param : 256.f) : (param < -256.f ? -256.f : 0.f);
      const int add = static_cast<int>(floorf(bounded + 0.5f));
      for (int i = 0; i < 256; ++i) {
        const int v = i < 128 ? i + add : i;
        lut[i] = static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
      }
      return;
    }
    case AugmentOp::kContrast:
      for (int i = 0; i < 256; ++i) lut[i] = BlendPil(float(luma_mean), float(i), param);
      return;
    case AugmentOp::kBrightness:
      for (int i = 0; i < 256; ++i) lut[i] = BlendPil(0.f, float(i), param);
      return;
    case AugmentOp::kGamma:
      if (!(param > 0.f)) break;  // no exponent: identity
      // Double precision, so that the CPU's and the GPU's pow round to the same level.
      for (int i = 0; i < 256; ++i) {
        const double v = floor(255.0 * pow(i / 255.0, double(param)) + 0.5);
        lut[i] = static_cast<uint8_t>(v > 255.0 ? 255.0 : v);
      }
      return;
    case AugmentOp::kToneCurve: {
      const int only = ToneCurveChannel(aux[1]);
      if (only < 0 || only == channel) {
        ToneCurveLut(param, aux[0], lut);
        return;
      }
      break;
    }
    default:
      break;
  }
  for (int i = 0; i < 256; ++i) lut[i] = static_cast<uint8_t>(i);
}

// The 2x3 matrix (output pixel centre -> input coordinate) of an affine operation on a
// w x h image, as PIL builds it (Image.rotate rounds cos/sin to 15 digits; float here).
TFGPUAUG_HD void AffineMatrix(int op, float param, int h, int w, float* m) {
  m[0] = 1.f;
  m[1] = 0.f;
  m[2] = 0.f;
  m[3] = 0.f;
  m[4] = 1.f;
  m[5] = 0.f;
  switch (static_cast<AugmentOp>(op)) {
    case AugmentOp::kRotate: {
      const double a = -static_cast<double>(param) * 3.14159265358979323846 / 180.0;
      const double c = cos(a), s = sin(a), cx = w / 2.0, cy = h / 2.0;
      m[0] = float(c);
      m[1] = float(s);
      m[2] = float(c * -cx + s * -cy + cx);
      m[3] = float(-s);
      m[4] = float(c);
      m[5] = float(-s * -cx + c * -cy + cy);
      return;
    }
    case AugmentOp::kShearX:
      m[1] = param;
      return;
    case AugmentOp::kShearY:
      m[3] = param;
      return;
    case AugmentOp::kTranslateX:
      m[2] = param;
      return;
    case AugmentOp::kTranslateY:
      m[5] = param;
      return;
    default:
      return;
  }
}

// PIL's ImageFilter.SMOOTH (3x3, weights 1 around a centre of 5, divided by 13) at an
// interior pixel; PIL copies border pixels unfiltered. PIL sums float weights; the exact
// integer sum / 13 is never within float error of a .5 tie (13 is odd), so integer
// rounding gives the same values.
// The SMOOTH value at `mid` (one channel of an interior pixel); rows are `row` bytes
// apart and pixels `c` bytes.
TFGPUAUG_HD uint8_t SmoothPilAt(const uint8_t* mid, size_t row, int c) {
  const uint8_t* up = mid - row;
  const uint8_t* down = mid + row;
  const int sum = up[-c] + up[0] + up[c] + mid[-c] + 5 * mid[0] + mid[c] + down[-c] + down[0] + down[c];
  return static_cast<uint8_t>((2 * sum + 13) / 26);
}

TFGPUAUG_HD uint8_t SmoothPil(const uint8_t* img, int w, int c, int y, int x, int k) {
  return SmoothPilAt(img + (size_t(y) * w + x) * c + k, size_t(w) * c, c);
}

TFGPUAUG_HD void RgbToHsv(float r, float g, float b, float* h, float* s, float* v) {
  const float mx = fmaxf(r, fmaxf(g, b)), mn = fminf(r, fminf(g, b)), d = mx - mn;
  *v = mx;
  *s = mx > 0.f ? d / mx : 0.f;
  if (d <= 0.f) {
    *h = 0.f;
    return;
  }
  float hh;
  if (mx == r)
    hh = (g - b) / d;
  else if (mx == g)
    hh = 2.f + (b - r) / d;
  else
    hh = 4.f + (r - g) / d;
  hh /= 6.f;
  *h = hh < 0.f ? hh + 1.f : hh;
}

TFGPUAUG_HD void HsvToRgb(float h, float s, float v, float* r, float* g, float* b) {
  h = h - floorf(h);
  const float hh = h * 6.f;
  const int i = static_cast<int>(hh) % 6;
  const float f = hh - floorf(hh), p = v * (1.f - s), q = v * (1.f - s * f), t = v * (1.f - s * (1.f - f));
  switch (i) {
    case 0:
      *r = v;
      *g = t;
      *b = p;
      break;
    case 1:
      *r = q;
      *g = v;
      *b = p;
      break;
    case 2:
      *r = p;
      *g = v;
      *b = t;
      break;
    case 3:
      *r = p;
      *g = q;
      *b = v;
      break;
    case 4:
      *r = t;
      *g = p;
      *b = v;
      break;
    default:
      *r = v;
      *g = p;
      *b = q;
      break;
  }
}

// OpenCV's 8-bit RGB -> HSV (cv2.COLOR_RGB2HSV): hue 0..179 in 2-degree steps, saturation
// and value 0..255, in its fixed-point arithmetic (12 fraction bits; the two divisions
// rounded, never a tie for 8-bit values). Equal to cv2 for all 2^24 colours (tested).
// round((255 << 12) / v) and round((180 << 12) / (6 diff)), 0 for 0.
TFGPUAUG_HD int HsvSatReciprocal(int v) { return v ? (2 * (255 << 12) + v) / (2 * v) : 0; }
TFGPUAUG_HD int HsvHueReciprocal(int diff) { return diff ? (2 * (180 << 12) + 6 * diff) / (12 * diff) : 0; }

TFGPUAUG_HD void RgbToHsvOpenCv(int r, int g, int b, int* h, int* s, int* v) {
  const int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
  const int mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
  const int diff = mx - mn;
  int hue = mx == r ? g - b : (mx == g ? b - r + 2 * diff : r - g + 4 * diff);
  hue = (hue * HsvHueReciprocal(diff) + (1 << 11)) >> 12;  // an arithmetic shift (floor), as OpenCV
  *h = hue < 0 ? hue + 180 : hue;
  *s = (diff * HsvSatReciprocal(mx) + (1 << 11)) >> 12;
  *v = mx;
}

// OpenCV's 8-bit HSV -> RGB (cv2.COLOR_HSV2RGB) as its x86-64 vector loop computes it (4.10
// and 5.0 alike): float32 through sectors of 60 degrees, 1 - s h and 1 - s (1 - h) as fused
// multiply-adds, times 255, truncated. Equal to cv2 for all 180 x 256 x 256 inputs in 32-pixel
// blocks; OpenCV's scalar loop for the last (width mod 32) pixels of a row rounds instead, so
// there cv2 can be one level higher.
TFGPUAUG_HD void HsvToRgbOpenCv(int h, int s, int v, uint8_t* rgb) {
  const float sf = float(s) * (1.f / 255.f), vf = float(v) * (1.f / 255.f);
  float out[3] = {vf, vf, vf};
  if (s != 0) {
    float hh = float(h) * (6.f / 180.f);
    int sector = static_cast<int>(floorf(hh));
    hh -= float(sector);
    sector %= 6;  // h < 180 here; OpenCV wraps larger ones the same way
    const float tab[4] = {vf, vf * (1.f - sf), vf * fmaf(-sf, hh, 1.f), vf * fmaf(-sf, 1.f - hh, 1.f)};
    // Per sector, the table entries of (r, g, b).
    const uint8_t rgb_of[6][3] = {{0, 3, 1}, {2, 0, 1}, {1, 0, 3}, {1, 2, 0}, {3, 1, 0}, {0, 1, 2}};
    for (int k = 0; k < 3; ++k) out[k] = tab[rgb_of[sector][k]];
  }
  for (int k = 0; k < 3; ++k) {
    const float x = out[k] * 255.f;  // in [0, 255]: s and v are
    rgb[k] = static_cast<uint8_t>(x <= 0.f ? 0.f : (x >= 255.f ? 255.f : x));
  }
}

// Albumentations' HueSaturationValue on one pixel: OpenCV's HSV, the hue moved by `hue_add`
// (an integer 0..179) modulo 180, saturation and value shifted by whole levels and saturated
// (a gray pixel, saturation 0, stays gray), back to RGB.
TFGPUAUG_HD void HsvShiftPixel(const uint8_t* px, int hue_add, int sat_add, int val_add, uint8_t* out) {
  int h, s, v;
  RgbToHsvOpenCv(px[0], px[1], px[2], &h, &s, &v);
  h = (h + hue_add) % 180;
  if (s != 0) s = s + sat_add < 0 ? 0 : (s + sat_add > 255 ? 255 : s + sat_add);
  v = v + val_add < 0 ? 0 : (v + val_add > 255 ? 255 : v + val_add);
  HsvToRgbOpenCv(h, s, v, out);
}

// hsv_shift's three shifts as integers, as Albumentations 2.0.8 applies float shifts: the hue
// by floor (its table truncates (h + shift) mod 180), wrapped into 0..179; saturation and
// value truncated toward zero (its int()), bounded to +-255 (NaN: 0).
struct HsvShifts {
  int hue, sat, val;
};
TFGPUAUG_HD HsvShifts HsvShiftsOf(float hue, float sat, float val) {
  const float hue_turns = hue >= -1e6f && hue <= 1e6f ? floorf(hue) : 0.f;
  int h = static_cast<int>(fmodf(hue_turns, 180.f));
  h = h < 0 ? h + 180 : h;
  const float s = truncf(sat >= -255.f ? (sat <= 255.f ? sat : 255.f) : (sat < -255.f ? -255.f : 0.f));
  const float v = truncf(val >= -255.f ? (val <= 255.f ? val : 255.f) : (val < -255.f ? -255.f : 0.f));
  return {h, static_cast<int>(s), static_cast<int>(v)};
}

// Byte `index` of an image plus Gaussian noise of deviation `sigma`: bytes 2k and 2k + 1 take
// the two normals (cosine, sine) of one Box-Muller pair of uniforms 2k and 2k + 1 of the
// seed's stream, so a vector loop draws one pair for two bytes.
TFGPUAUG_HD uint8_t NoisyByte(uint32_t seed, uint32_t index, float sigma, uint8_t value) {
  const uint32_t pair = index & ~1u;
  float z_cos, z_sin;
  GaussianPairFromUniforms(HashUniform(seed, pair), HashUniform(seed, pair + 1), &z_cos, &z_sin);
  return SaturateToUint8(value + sigma * ((index & 1u) ? z_sin : z_cos));
}

// 510 times the HLS lightness of an RGB pixel: max + min of its bytes.
TFGPUAUG_HD uint32_t LightnessTimes510(const uint8_t* p) {
  const uint8_t hi = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
  const uint8_t lo = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
  return uint32_t(hi) + lo;
}

// OpenCV's float RGB -> HLS (cv2.COLOR_RGB2HLS on [0, 1] input): hue in degrees [0, 360).
TFGPUAUG_HD void RgbToHlsOpenCv(float r, float g, float b, float* h, float* l, float* s) {
  const float vmax = fmaxf(r, fmaxf(g, b)), vmin = fminf(r, fminf(g, b));
  float diff = vmax - vmin;
  *l = (vmax + vmin) * 0.5f;
  *h = *s = 0.f;
  if (diff > 1.1920929e-7f) {  // FLT_EPSILON
    *s = *l < 0.5f ? diff / (vmax + vmin) : diff / (2.f - vmax - vmin);
    diff = 60.f / diff;
    if (vmax == r) {
      *h = (g - b) * diff;
    } else if (vmax == g) {
      *h = (b - r) * diff + 120.f;
    } else {
      *h = (r - g) * diff + 240.f;
    }
    if (*h < 0.f) *h += 360.f;
  }
}

// OpenCV's float HLS -> RGB (cv2.COLOR_HLS2RGB, hue in degrees, any turn).
TFGPUAUG_HD void HlsToRgbOpenCv(float h, float l, float s, float* rgb) {
  if (s == 0.f) {
    rgb[0] = rgb[1] = rgb[2] = l;
    return;
  }
  const float p2 = l <= 0.5f ? l * (1.f + s) : l + s - l * s;
  const float p1 = 2.f * l - p2;
  h *= 1.f / 60.f;
  // OpenCV adds or subtracts 6 until h is in [0, 6); floorf (a libm call on baseline x86-64)
  // only for hues outside it
  if (h < 0.f || h >= 6.f) h -= 6.f * floorf(h * (1.f / 6.f));
  if (h >= 6.f) h -= 6.f;
  int sector = static_cast<int>(h);  // h >= 0: truncation is the floor
  sector = sector < 0 ? 0 : (sector > 5 ? 5 : sector);
  h -= float(sector);
  const float tab[4] = {p2, p1, p1 + (p2 - p1) * (1.f - h), p1 + (p2 - p1) * h};
  // which of tab each of b, g, r takes, per sector (OpenCV's sector_data)
  const int8_t sector_data[6][3] = {{1, 3, 0}, {1, 0, 2}, {3, 0, 1}, {0, 2, 1}, {0, 1, 3}, {2, 1, 0}};
  rgb[2] = tab[sector_data[sector][0]];
  rgb[1] = tab[sector_data[sector][1]];
  rgb[0] = tab[sector_data[sector][2]];
}

// A Poisson count of mean lambda from a uniform in (0, 1), by inversion (p0 = exp(-lambda));
// at most kMaxPoissonCount, so a rounding-stalled sum still ends.
constexpr int kMaxPoissonCount = 64;
TFGPUAUG_HD int PoissonFromUniform(float u, float lambda, float p0) {
  int k = 0;
  float p = p0, cdf = p0;
  while (u > cdf && k < kMaxPoissonCount) {
    ++k;
    p *= lambda / float(k);
    cdf += p;
  }
  return k;
}

// Albumentations' ISONoise on one RGB pixel (uniforms 3 index .. 3 index + 2 of the stream):
// in OpenCV's float HLS, the hue plus N(0, colour shift * intensity) degrees and the
// lightness plus Poisson(lambda) * intensity * (1 - L), back to RGB, clipped, rounded half
// to even.
TFGPUAUG_HD void IsoNoisePixel(uint32_t seed, uint32_t index, float intensity, float color_sigma,
                               float lambda, float p0, const uint8_t* px, uint8_t* out) {
  float h, l, s, rgb[3];
  RgbToHlsOpenCv(px[0] / 255.f, px[1] / 255.f, px[2] / 255.f, &h, &l, &s);
  const int count = PoissonFromUniform(HashUniform(seed, 3 * index), lambda, p0);
  if (color_sigma > 0.f)
    h += color_sigma *
         GaussianFromUniforms(HashUniform(seed, 3 * index + 1), HashUniform(seed, 3 * index + 2));
  l += float(count) * intensity * (1.f - l);
  HlsToRgbOpenCv(h, l, s, rgb);
  for (int k = 0; k < 3; ++k) out[k] = RoundHalfEvenToUint8(Clamped01(rgb[k]) * 255.f);
}

// Albumentations' ToSepia matrix: output channel `row` (R, G, B) weighs input channel `col`.
TFGPUAUG_HD float SepiaWeight(int row, int col) {
  const float m[9] = {0.393f, 0.769f, 0.189f, 0.349f, 0.686f, 0.168f, 0.272f, 0.534f, 0.131f};
  return m[3 * row + col];
}

// ToSepia on one RGB pixel: a row of the matrix times the pixel, multiplied then added left to
// right in float (cv2.transform's float path), rounded half to even, saturated.
TFGPUAUG_HD void SepiaPixel(const uint8_t* px, uint8_t* out) {
  const float r = px[0], g = px[1], b = px[2];
  for (int k = 0; k < 3; ++k)
    out[k] = RoundHalfEvenToUint8(SepiaWeight(k, 0) * r + SepiaWeight(k, 1) * g + SepiaWeight(k, 2) * b);
}

// A level argument as a byte: rounded half to even, saturated; NaN gives 0.
TFGPUAUG_HD uint8_t LevelOf(float v) { return v >= 0.f ? RoundHalfEvenToUint8(v) : 0; }

// channel_dropout's channels as bits (bit k: channel k), from the rounded parameter; NaN,
// negative or huge parameters drop nothing.
TFGPUAUG_HD int DroppedChannelBits(float param) {
  return param >= 0.f && param < 65536.f ? static_cast<int>(param + 0.5f) : 0;
}

// The per-pixel random streams of the dropout stages. pixel_dropout: uniform 5 i decides pixel
// i, uniforms 5 i + 1 + k give channel k's random level; pixel_dropout_per_channel: uniforms
// 2 e and 2 e + 1 for byte e; salt_and_pepper: 2 i decides pixel i, 2 i + 1 picks salt. A
// pixel's decision never depends on the channel count, so a one-channel image of ones gives
// the dropped pixels of any image (the masks' rule in Python).
constexpr uint32_t kPixelDropoutStride = 5;

// A dropped byte's value: `level` (rounded) when it is not negative, else a uniform level from
// uniform `index` of the stream (NaN: 0).
TFGPUAUG_HD uint8_t DropLevel(float level, uint32_t seed, uint32_t index) {
  if (!(level < 0.f)) return LevelOf(level);
  const int v = static_cast<int>(HashUniform(seed, index) * 256.f);
  return static_cast<uint8_t>(v > 255 ? 255 : v);
}

// pixel_dropout (per_channel false or true) of pixel `pixel` of c channels: each dropped byte
// takes DropLevel; `probability` is the chance a pixel (or byte) is dropped.
TFGPUAUG_HD void PixelDropoutPixel(bool per_channel, uint32_t seed, uint32_t pixel, float probability,
                                   float level, const uint8_t* px, int c, uint8_t* out) {
  if (per_channel) {
    for (int k = 0; k < c; ++k) {
      const uint32_t e = pixel * uint32_t(c) + uint32_t(k);
      out[k] = HashUniform(seed, 2 * e) < probability ? DropLevel(level, seed, 2 * e + 1) : px[k];
    }
    return;
  }
  const uint32_t base = kPixelDropoutStride * pixel;
  const bool dropped = HashUniform(seed, base) < probability;
  for (int k = 0; k < c; ++k) out[k] = dropped ? DropLevel(level, seed, base + 1 + uint32_t(k)) : px[k];
}

// salt_and_pepper of pixel `pixel`: with probability `amount` every channel becomes 255 (salt,
// with probability `salt` of those) or 0.
TFGPUAUG_HD void SaltAndPepperPixel(uint32_t seed, uint32_t pixel, float amount, float salt,
                                    const uint8_t* px, int c, uint8_t* out) {
  const bool noisy = HashUniform(seed, 2 * pixel) < amount;
  const uint8_t value = HashUniform(seed, 2 * pixel + 1) < salt ? 255 : 0;
  for (int k = 0; k < c; ++k) out[k] = noisy ? value : px[k];
}

// multiplicative_noise: the factor of uniform `index` of the stream, low + u (high - low) (a
// multiply, then an add: the AVX2 loop and the GPU round the same), a byte times it by
// ScaledByte. The factor is per pixel (uniform `pixel`, every channel) or, per channel, per
// byte (uniform `byte`). Equal bounds give that factor exactly.
TFGPUAUG_HD float NoiseFactor(uint32_t seed, uint32_t index, float low, float high) {
  return low == high ? low : low + HashUniform(seed, index) * (high - low);
}
TFGPUAUG_HD void MultiplicativeNoisePixel(bool per_channel, uint32_t seed, uint32_t pixel, float low,
                                          float high, const uint8_t* px, int c, uint8_t* out) {
  const float shared = per_channel ? 0.f : NoiseFactor(seed, pixel, low, high);
  for (int k = 0; k < c; ++k)
    out[k] = ScaledByte(
        px[k], per_channel ? NoiseFactor(seed, pixel * uint32_t(c) + uint32_t(k), low, high) : shared);
}

// The additive noise stages (Albumentations' AdditiveNoise on uint8, per_pixel and shared
// modes): a location-scale family, noise = location + scale z in levels, z standard uniform on
// (-1, 1), normal or Laplace, drawn from the stage's stream. Ids come in pairs: a value a byte,
// then one a pixel shared by its channels.
enum class NoiseFamily : int { kUniform, kNormal, kLaplace };
TFGPUAUG_HD bool IsAdditiveNoiseOp(int op) {
  return op >= int(AugmentOp::kUniformNoise) && op <= int(AugmentOp::kLaplaceNoiseShared);
}
TFGPUAUG_HD NoiseFamily AdditiveNoiseFamily(int op) {
  return static_cast<NoiseFamily>((op - int(AugmentOp::kUniformNoise)) / 2);
}
TFGPUAUG_HD bool AdditiveNoiseShared(int op) { return (op - int(AugmentOp::kUniformNoise)) % 2 == 1; }

// Standard value `index` of the stream: uniform 2u - 1; normal by Box-Muller, values 2k and
// 2k + 1 the cosine and sine of uniforms 2k and 2k + 1 (as NoisyByte); Laplace by inversion,
// log(2u) below one half, -log(2 - 2u) above (numpy's rule). The portable log: the same bits
// on both devices.
TFGPUAUG_HD float StandardNoise(NoiseFamily family, uint32_t seed, uint32_t index) {
  if (family == NoiseFamily::kNormal) {
    const uint32_t pair = index & ~1u;
    float z_cos, z_sin;
    GaussianPairFromUniforms(HashUniform(seed, pair), HashUniform(seed, pair + 1), &z_cos, &z_sin);
    return (index & 1u) ? z_sin : z_cos;
  }
  const float u = HashUniform(seed, index);  // in (0, 1): both logs stay finite
  if (family == NoiseFamily::kUniform) return 2.f * u - 1.f;
  return u < 0.5f ? LogPositive(2.f * u) : -LogPositive(2.f - 2.f * u);
}

// A byte plus noise as Albumentations adds a float noise map to uint8: the noise truncated
// toward zero, the sum saturated. Noise is held within +-512 first (NaN gives 0) so the
// conversion stays defined.
TFGPUAUG_HD uint8_t NoiseAddedByte(uint8_t value, float noise) {
  const float held = noise > -512.f ? (noise < 512.f ? noise : 512.f) : (noise <= -512.f ? -512.f : 0.f);
  const int sum = int(value) + static_cast<int>(held);  // the cast truncates toward zero
  return static_cast<uint8_t>(sum < 0 ? 0 : (sum > 255 ? 255 : sum));
}

// Channels of pixel `pixel` under an additive noise stage: byte pixel c + k takes value
// pixel c + k of the stream, or every channel value `pixel` in the shared form.
TFGPUAUG_HD void AdditiveNoisePixel(int op, uint32_t seed, uint32_t pixel, float scale, float location,
                                    const uint8_t* px, int c, uint8_t* out) {
  const NoiseFamily family = AdditiveNoiseFamily(op);
  if (AdditiveNoiseShared(op)) {
    const float noise = location + scale * StandardNoise(family, seed, pixel);
    for (int k = 0; k < c; ++k) out[k] = NoiseAddedByte(px[k], noise);
    return;
  }
  for (int k = 0; k < c; ++k)
    out[k] = NoiseAddedByte(
        px[k], location + scale * StandardNoise(family, seed, pixel * uint32_t(c) + uint32_t(k)));
}

// shot_noise (Albumentations' ShotNoise) of one byte v: in linear light L = (v / 255)^2.2, a
// Poisson count of mean (L + scale 1e-6) / scale, times scale, clipped to [0, 1], back by the
// power 1 / 2.2, times 255, rounded half to even. The powers by the portable log and exp (the
// same bits on both devices). Means below kShotInversionLimit draw the count by inversion
// (uniform 2 index of the stream, exact up to kMaxPoissonCount); larger ones by the normal
// approximation lambda + sqrt(lambda) z rounded, z from uniforms 2 index and 2 index + 1. The
// scale is kept in [kMinShotScale, kMaxShotScale] so every step stays finite.
constexpr float kShotInversionLimit = 12.f;
constexpr float kMinShotScale = 1e-4f, kMaxShotScale = 1e4f;
TFGPUAUG_HD float ShotScale(float param) {
  return param >= kMinShotScale ? (param <= kMaxShotScale ? param : kMaxShotScale) : kMinShotScale;
}
TFGPUAUG_HD float ShotMean(uint8_t v, float scale) {
  const float linear = v == 0 ? 0.f : ExpNonPositive(2.2f * LogPositive(float(v) / 255.f));
  return (linear + scale * 1e-6f) / scale;
}
// The count for a byte whose mean is lambda (p0 = exp(-lambda), used below the limit only).
TFGPUAUG_HD float ShotCount(uint32_t seed, uint32_t index, float lambda, float p0) {
  if (lambda < kShotInversionLimit)
    return float(PoissonFromUniform(HashUniform(seed, 2 * index), lambda, p0));
  const float z = GaussianFromUniforms(HashUniform(seed, 2 * index), HashUniform(seed, 2 * index + 1));
  const float count = floorf(lambda + sqrtf(lambda) * z + 0.5f);
  return count > 0.f ? count : 0.f;
}
TFGPUAUG_HD uint8_t ShotLevel(float count, float scale) {
  const float n = count * scale;
  if (!(n > 0.f)) return 0;
  if (n >= 1.f) return 255;
  return RoundHalfEvenToUint8(ExpNonPositive(LogPositive(n) * (1.f / 2.2f)) * 255.f);
}
TFGPUAUG_HD uint8_t ShotByte(uint32_t seed, uint32_t index, float scale, uint8_t v) {
  const float lambda = ShotMean(v, scale);
  const float p0 = lambda < kShotInversionLimit ? ExpNonPositive(-lambda) : 0.f;
  return ShotLevel(ShotCount(seed, index, lambda, p0), scale);
}

// dihedral: one of the square's eight symmetries as bits of the rounded parameter (4: transpose,
// 2: then flip horizontally, 1: then flip vertically; NaN, negative or above 7: identity). A
// transpose needs a square image (it would swap height and width): on any other it is left out.
struct DihedralMap {
  bool transpose, flip_x, flip_y;
};
TFGPUAUG_HD DihedralMap DihedralOf(float param, int h, int w) {
  const int bits = param >= 0.f && param < 7.5f ? static_cast<int>(param + 0.5f) : 0;
  return {(bits & 4) != 0 && h == w, (bits & 2) != 0, (bits & 1) != 0};
}
// The source pixel (*sy, *sx) of output pixel (y, x).
TFGPUAUG_HD void DihedralSource(const DihedralMap& m, int h, int w, int y, int x, int* sy, int* sx) {
  const int fy = m.flip_y ? h - 1 - y : y, fx = m.flip_x ? w - 1 - x : x;
  *sy = m.transpose ? fx : fy;
  *sx = m.transpose ? fy : fx;
}

// The largest iso_noise intensity and colour shift the kernel takes (larger are clamped).
constexpr float kMaxIsoIntensity = 10.f;

struct AugmentImage {
  int h, w, c;
  float fill;
  Interpolation interpolation;
};

// Gaussian blur: a separable kernel of radius ceil(3 sigma) (at most kMaxBlurRadius),
// weights exp(-d^2 / (2 sigma^2)) normalised to sum 1.
constexpr int kMaxBlurRadius = 16;

TFGPUAUG_HD int BlurRadius(float sigma) {
  if (!(sigma > 0.f)) return 0;
  const float r = ceilf(3.f * sigma);
  return r > float(kMaxBlurRadius) ? kMaxBlurRadius : static_cast<int>(r);
}

// w[0 .. 2r] for offsets -r .. r.
TFGPUAUG_HD void BlurWeights(float sigma, int r, float* w) {
  const float inv = 1.f / (2.f * sigma * sigma);
  float sum = 0.f;
  for (int i = 0; i <= 2 * r; ++i) {
    const float d = float(i - r);
    w[i] = ExpNonPositive(-d * d * inv);
    sum += w[i];
  }
  for (int i = 0; i <= 2 * r; ++i) w[i] /= sum;
}

// Sharpen and emboss (Albumentations' matrices): (1 - alpha) * identity + alpha * effect,
// where sharpen's effect is -1 around 8 + lightness and emboss's the diagonal relief of
// `strength`; row-major 3x3 weights. aux[0] in [0, 1] gives lightness 0.5 .. 1.5 and strength
// 0.2 .. 1.2 (Albumentations' default ranges inside), so a policy's uniform aux draws sensible
// ones. Parameters outside their ranges are clamped, and NaN means 0.
TFGPUAUG_HD float Clamped(float v, float lo, float hi) { return v >= lo ? (v <= hi ? v : hi) : lo; }

TFGPUAUG_HD void ReliefKernel(int op, float alpha, float aux, float* w) {
  alpha = Clamped(alpha, 0.f, 1.f);
  if (op == int(AugmentOp::kSharpen)) {
    const float lightness = 0.5f + Clamped(aux, 0.f, 1.f);
    for (int i = 0; i < 9; ++i) w[i] = -alpha;
    w[4] = (1.f - alpha) + alpha * (8.f + lightness);
  } else {
    const float s = 0.2f + Clamped(aux, 0.f, 1.f);
    const float effect[9] = {-1.f - s, -s, 0.f, -s, 1.f, s, 0.f, s, 1.f + s};
    for (int i = 0; i < 9; ++i) w[i] = alpha * effect[i];
    w[4] += 1.f - alpha;
  }
}

// Median blur's window side: param rounded to the nearest odd number in 3..7; 0 (the
// identity) below 2 or for NaN.
constexpr int kMaxMedianSide = 7;
TFGPUAUG_HD int MedianSide(float param) {
  if (!(param >= 2.f)) return 0;
  const int side = 2 * static_cast<int>(floorf(Clamped(param, 2.f, 8.f) * 0.5f)) + 1;
  return side > kMaxMedianSide ? kMaxMedianSide : side;
}

// Box blur (OpenCV's blur, which Albumentations' Blur calls): the mean of the side x side
// window, side odd from the parameter as MedianSide rounds it, at most kMaxBoxSide.
constexpr int kMaxBoxSide = 15;
TFGPUAUG_HD int BoxSide(float param) {
  if (!(param >= 2.f)) return 0;
  const int side = 2 * static_cast<int>(floorf(Clamped(param, 2.f, 16.f) * 0.5f)) + 1;
  return side > kMaxBoxSide ? kMaxBoxSide : side;
}

// Motion blur: the mean of `length` pixels along a line through the pixel at angle
// aux[0] * 360 degrees, the offsets rounded to whole pixels (reflect-101 border).
constexpr int kMaxMotionLength = 31;
TFGPUAUG_HD int MotionLength(float param) {
  if (!(param >= 2.f)) return 0;
  return static_cast<int>(floorf(Clamped(param, 3.f, float(kMaxMotionLength)) + 0.5f));
}

// Downscale (Albumentations' Downscale with its default nearest / nearest pair, as OpenCV's
// cv2.resize computes it): the small image is round(size * scale) pixels a side (half to even,
// as cvRound; at least 1);
// going down, small pixel d takes source pixel floor(d / scale); going up, output pixel x takes
// small pixel floor(x * small / size); both clamped, in float (OpenCV's double gives the same for
// scales float holds exactly, as 0.25 or 0.5). A scale outside (0, 1) or NaN is the identity.
TFGPUAUG_HD int DownscaledSize(int size, float scale) {
  const int small = static_cast<int>(rintf(float(size) * scale));
  return small < 1 ? 1 : (small > size ? size : small);
}
TFGPUAUG_HD int DownscaleSource(int x, int size, int small, float scale) {
  int d = static_cast<int>(floorf(float(x) * float(small) / float(size)));  // up: output -> small
  d = d < small - 1 ? d : small - 1;
  int s = static_cast<int>(floorf(float(d) / scale));  // down: small -> source
  return s < size - 1 ? s : size - 1;
}

// What one stage needs for one sample, computed once per sample (not per pixel).
struct StageParams {
  int op;
  float param;
  float aux[2];
  float matrix[6];  // affine ops
  uint32_t seed;    // gaussian noise
  int blur_radius;  // gaussian blur: radius and weights w[0 .. 2r] (offsets -r .. r)
  float blur[2 * kMaxBlurRadius + 1];
  float relief[9];  // sharpen, emboss: 3x3 weights
  int window;       // median blur: side; motion blur: length
  int8_t motion_dy[kMaxMotionLength], motion_dx[kMaxMotionLength];
  float iso_lambda, iso_p0;         // iso_noise: Poisson mean and exp(-mean), set by SetLightnessStats
  ClaheGrid clahe;                  // clahe: the tile grid, and the tables [tiles_y][tiles_x][256] the
  const uint8_t* clahe_luts;        // driver builds (null: the stage copies)
  IlluminationParams illumination;  // the illumination stages
};

TFGPUAUG_HD bool IsIlluminationOp(int op) {
  return op >= int(AugmentOp::kIlluminationLinear) && op <= int(AugmentOp::kIlluminationGaussian);
}

// iso_noise's per-image numbers from the lightness sums (of max + min of the RGB bytes, and
// of its square; L = (max + min) / 510): the Poisson mean std(L) * intensity, as
// cv2.meanStdDev's population deviation.
TFGPUAUG_HD void SetLightnessStats(double sum, double sum_sq, double pixels, StageParams* stage_params) {
  const double mean = sum / pixels, var = sum_sq / pixels - mean * mean;
  const double std_l = (var > 0.0 ? sqrt(var) : 0.0) / 510.0;
  const float intensity = Clamped(stage_params->param, 0.f, kMaxIsoIntensity);
  stage_params->iso_lambda = static_cast<float>(std_l) * intensity;
  stage_params->iso_p0 = ExpNonPositive(-stage_params->iso_lambda);
}

TFGPUAUG_HD StageParams PrepareStage(int op, float param, const float* aux, const AugmentImage& image_info) {
  StageParams stage_params;
  stage_params.op = op;
  stage_params.param = param;
  stage_params.aux[0] = aux[0];
  stage_params.aux[1] = aux[1];
  AffineMatrix(op, param, image_info.h, image_info.w, stage_params.matrix);
  // noise stages' stream from a uniform in [0, 1); other ops' aux[0] (levels, tile counts) is
  // clamped first so the conversion stays defined
  stage_params.seed = static_cast<uint32_t>(Clamped01(aux[0]) * 4294967040.f);
  stage_params.iso_lambda = 0.f;
  stage_params.iso_p0 = 1.f;
  stage_params.clahe = ClaheGridOf(aux[0], aux[1], image_info.h, image_info.w);
  stage_params.clahe_luts = nullptr;
  stage_params.blur_radius = op == int(AugmentOp::kGaussianBlur) ? BlurRadius(param) : 0;
  if (stage_params.blur_radius > 0) BlurWeights(param, stage_params.blur_radius, stage_params.blur);
  if (op == int(AugmentOp::kSharpen) || op == int(AugmentOp::kEmboss)) {
    ReliefKernel(op, param, aux[0], stage_params.relief);
  }
  stage_params.window = op == int(AugmentOp::kMedianBlur)   ? MedianSide(param)
                        : op == int(AugmentOp::kMotionBlur) ? MotionLength(param)
                        : op == int(AugmentOp::kBoxBlur)    ? BoxSide(param)
                                                            : 0;
  if (IsIlluminationOp(op))
    stage_params.illumination = IlluminationParamsOf(op - int(AugmentOp::kIlluminationLinear), param, aux,
                                                     image_info.h, image_info.w);
  if (op == int(AugmentOp::kMotionBlur) && stage_params.window > 0) {
    const float turn = Clamped(aux[0], 0.f, 1.f) * 6.28318530717958647692f;
    const float dy = sinf(turn), dx = cosf(turn);
    for (int i = 0; i < stage_params.window; ++i) {
      const float t = float(i) - 0.5f * float(stage_params.window - 1);
      stage_params.motion_dy[i] = static_cast<int8_t>(floorf(t * dy + 0.5f));
      stage_params.motion_dx[i] = static_cast<int8_t>(floorf(t * dx + 0.5f));
    }
  }
  return stage_params;
}

// Cutout's square: centre (from aux, as fractions of the size) and half side in pixels.
struct CutoutSquare {
  float cy, cx, half;
};
TFGPUAUG_HD CutoutSquare CutoutOf(const StageParams& stage_params, const AugmentImage& image_info) {
  return {stage_params.aux[0] * image_info.h, stage_params.aux[1] * image_info.w, 0.5f * stage_params.param};
}
// Whether a pixel centre at `pos` lies inside the square along one axis.
TFGPUAUG_HD bool CutoutCovers(float centre, float half, float pos) {
  return pos >= centre - half && pos < centre + half;
}

// Output channel k of channel_shuffle takes input channel perm[k]; `index` (rounded, mod 6)
// picks one of the 3! orders, lexicographically: 0 = RGB, 1 = RBG, ..., 5 = BGR.
TFGPUAUG_HD void ChannelPermutation(float index, int* perm) {
  // NaN, infinities and huge values would make the cast undefined: they mean order 0.
  if (!(fabsf(index) < 1e6f)) index = 0.f;
  int i = static_cast<int>(floorf(index + 0.5f)) % 6;
  if (i < 0) i += 6;
  const int first = i / 2, rest = i % 2;
  const int a = first == 0 ? 1 : 0, b = first == 2 ? 1 : 2;  // the two others, ascending
  perm[0] = first;
  perm[1] = rest == 0 ? a : b;
  perm[2] = rest == 0 ? b : a;
}

// The horizontal sum of a blur about pixel x of one channel of a row (channel stride c): the
// weights are symmetric (w[r - d] == w[r + d]), so the two bytes d pixels either side are added
// first (exact) and taken by one fused multiply-add, outwards from the centre: half the
// multiplies of the plain sum and one rounding a distance. The CPU's AVX2 loops run the same
// fmas; without FMA hardware fmaf is the C library's (exact, slower).
TFGPUAUG_HD float BlurRowSum(const uint8_t* row, int width, int c, int x, const float* w, int r) {
  float h = w[r] * float(row[size_t(x) * c]);
  for (int d = 1; d <= r; ++d) {
    const int pair = row[size_t(Reflect101(x - d, width)) * c] + row[size_t(Reflect101(x + d, width)) * c];
    h = fmaf(w[r + d], float(pair), h);
  }
  return h;
}

// Channel k of blurred pixel (y, x): the row sums (BlurRowSum) of rows y - d and y + d added,
// then taken by a fused multiply-add the same way, outwards from the centre row. The CPU
// computes each row's sums once and the vertical sums in this order, so its bytes are this
// function's.
TFGPUAUG_HD float BlurRowSumAt(const uint8_t* src, const AugmentImage& image_info, const float* w, int r,
                               int y, int x, int k) {
  const uint8_t* row = src + size_t(Reflect101(y, image_info.h)) * image_info.w * image_info.c + k;
  return BlurRowSum(row, image_info.w, image_info.c, x, w, r);
}

TFGPUAUG_HD uint8_t BlurPixel(const uint8_t* src, const AugmentImage& image_info, const float* w, int r,
                              int y, int x, int k) {
  float acc = w[r] * BlurRowSumAt(src, image_info, w, r, y, x, k);
  for (int d = 1; d <= r; ++d) {
    const float pair =
        BlurRowSumAt(src, image_info, w, r, y - d, x, k) + BlurRowSumAt(src, image_info, w, r, y + d, x, k);
    acc = fmaf(w[r + d], pair, acc);
  }
  return SaturateToUint8(acc);
}

// Channel k of pixel (y, x) under a 3x3 kernel, reflect-101 border, rows then columns in
// ascending order, rounded half to even as OpenCV's filter2D saturates (weights like 0.5 put
// many sums on a half level).
TFGPUAUG_HD uint8_t ReliefPixel(const uint8_t* src, const AugmentImage& image_info, const float* w, int y,
                                int x, int k) {
  float acc = 0.f;
  for (int dy = -1; dy <= 1; ++dy) {
    const uint8_t* row = src + size_t(Reflect101(y + dy, image_info.h)) * image_info.w * image_info.c + k;
    for (int dx = -1; dx <= 1; ++dx)
      acc += w[(dy + 1) * 3 + dx + 1] * row[Reflect101(x + dx, image_info.w) * image_info.c];
  }
  acc = acc >= 0.f ? (acc <= 255.f ? acc : 255.f) : 0.f;  // NaN-free: the weights are clamped
  return static_cast<uint8_t>(rintf(acc));
}

// Channel k of pixel (y, x): the median of its side x side window, border replicated.
TFGPUAUG_HD uint8_t MedianPixel(const uint8_t* src, const AugmentImage& image_info, int side, int y, int x,
                                int k) {
  uint8_t v[kMaxMedianSide * kMaxMedianSide];
  int n = 0;
  const int r = side / 2;
  for (int dy = -r; dy <= r; ++dy) {
    const int yy = y + dy < 0 ? 0 : (y + dy >= image_info.h ? image_info.h - 1 : y + dy);
    for (int dx = -r; dx <= r; ++dx) {
      const int xx = x + dx < 0 ? 0 : (x + dx >= image_info.w ? image_info.w - 1 : x + dx);
      uint8_t value = src[(size_t(yy) * image_info.w + xx) * image_info.c + k];
      int i = n++;
      for (; i > 0 && v[i - 1] > value; --i) v[i] = v[i - 1];  // insertion sort
      v[i] = value;
    }
  }
  return v[n / 2];
}

// Channel k of pixel (y, x): the mean of its side x side window, reflect-101 border, rounded to
// the nearest level ((2 sum + n) / (2 n) with n = side^2 odd: never a tie), as OpenCV's blur.
TFGPUAUG_HD uint8_t BoxBlurPixel(const uint8_t* src, const AugmentImage& image_info, int side, int y, int x,
                                 int k) {
  const int r = side / 2, n = side * side;
  int sum = 0;
  for (int dy = -r; dy <= r; ++dy) {
    const uint8_t* row = src + size_t(Reflect101(y + dy, image_info.h)) * image_info.w * image_info.c + k;
    for (int dx = -r; dx <= r; ++dx) sum += row[size_t(Reflect101(x + dx, image_info.w)) * image_info.c];
  }
  return static_cast<uint8_t>((2 * sum + n) / (2 * n));
}

// Channel k of pixel (y, x): the mean along the stage's line, reflect-101 border.
TFGPUAUG_HD uint8_t MotionPixel(const uint8_t* src, const AugmentImage& image_info, const StageParams& s,
                                int y, int x, int k) {
  int sum = 0;
  for (int i = 0; i < s.window; ++i) {
    const int yy = Reflect101(y + s.motion_dy[i], image_info.h),
              xx = Reflect101(x + s.motion_dx[i], image_info.w);
    sum += src[(size_t(yy) * image_info.w + xx) * image_info.c + k];
  }
  return static_cast<uint8_t>((2 * sum + s.window) / (2 * s.window));  // rounded, half up
}

// All channels of output pixel (y, x) of a non-LUT stage applied to `src`.
TFGPUAUG_HD void AugmentPixel(const StageParams& stage_params, const uint8_t* src,
                              const AugmentImage& image_info, int y, int x, uint8_t* out) {
  const size_t at = (size_t(y) * image_info.w + x) * image_info.c;
  const uint8_t* px = src + at;
  const int color_channels = image_info.c >= 3 ? 3 : 0;  // colour ops leave gray and alpha alone
  for (int k = 0; k < image_info.c; ++k) out[k] = px[k];
  switch (static_cast<AugmentOp>(stage_params.op)) {
    case AugmentOp::kColor:
    case AugmentOp::kGrayscale: {
      if (!color_channels) return;
      const uint8_t gray = RgbToLuma(px[0], px[1], px[2]);
      for (int k = 0; k < 3; ++k)
        out[k] =
            stage_params.op == int(AugmentOp::kGrayscale) ? gray : BlendPil(gray, px[k], stage_params.param);
      return;
    }
    case AugmentOp::kSharpness: {
      if (y == 0 || x == 0 || y == image_info.h - 1 || x == image_info.w - 1) return;
      const int n = image_info.c >= 3 ? 3 : image_info.c;
      for (int k = 0; k < n; ++k)
        out[k] = BlendPil(SmoothPil(src, image_info.w, image_info.c, y, x, k), px[k], stage_params.param);
      return;
    }
    case AugmentOp::kCutout: {
      const CutoutSquare sq = CutoutOf(stage_params, image_info);
      if (CutoutCovers(sq.cy, sq.half, y + 0.5f) && CutoutCovers(sq.cx, sq.half, x + 0.5f))
        for (int k = 0; k < image_info.c; ++k) out[k] = SaturateToUint8(image_info.fill);
      return;
    }
    case AugmentOp::kHue:
    case AugmentOp::kSaturation: {
      if (!color_channels) return;
      float h, s, v, rgb[3];
      RgbToHsv(px[0] / 255.f, px[1] / 255.f, px[2] / 255.f, &h, &s, &v);
      if (stage_params.op == int(AugmentOp::kHue)) {
        h += stage_params.param;
      } else {
        s = fminf(1.f, fmaxf(0.f, s * stage_params.param));
      }
      HsvToRgb(h, s, v, &rgb[0], &rgb[1], &rgb[2]);
      for (int k = 0; k < 3; ++k) out[k] = SaturateToUint8(rgb[k] * 255.f);
      return;
    }
    case AugmentOp::kGaussianBlur:
      if (stage_params.blur_radius == 0) return;
      for (int k = 0; k < image_info.c; ++k)
        out[k] = BlurPixel(src, image_info, stage_params.blur, stage_params.blur_radius, y, x, k);
      return;
    case AugmentOp::kGaussianNoise:
      for (int k = 0; k < image_info.c; ++k)
        out[k] = NoisyByte(stage_params.seed, static_cast<uint32_t>(at + k), stage_params.param, px[k]);
      return;
    case AugmentOp::kChannelShuffle: {
      if (!color_channels) return;
      int perm[3];
      ChannelPermutation(stage_params.param, perm);
      for (int k = 0; k < 3; ++k) out[k] = px[perm[k]];
      return;
    }
    case AugmentOp::kSharpen:
    case AugmentOp::kEmboss:
      for (int k = 0; k < image_info.c; ++k)
        out[k] = ReliefPixel(src, image_info, stage_params.relief, y, x, k);
      return;
    case AugmentOp::kMedianBlur:
      if (stage_params.window == 0) return;
      for (int k = 0; k < image_info.c; ++k)
        out[k] = MedianPixel(src, image_info, stage_params.window, y, x, k);
      return;
    case AugmentOp::kBoxBlur:
      if (stage_params.window == 0) return;
      for (int k = 0; k < image_info.c; ++k)
        out[k] = BoxBlurPixel(src, image_info, stage_params.window, y, x, k);
      return;
    case AugmentOp::kMotionBlur:
      if (stage_params.window == 0) return;
      for (int k = 0; k < image_info.c; ++k) out[k] = MotionPixel(src, image_info, stage_params, y, x, k);
      return;
    case AugmentOp::kDownscale: {
      const float scale = stage_params.param;
      if (!(scale > 0.f && scale < 1.f)) return;
      const int sh = DownscaledSize(image_info.h, scale), sw = DownscaledSize(image_info.w, scale);
      const int sy = DownscaleSource(y, image_info.h, sh, scale),
                sx = DownscaleSource(x, image_info.w, sw, scale);
      const uint8_t* from = src + (size_t(sy) * image_info.w + sx) * image_info.c;
      for (int k = 0; k < image_info.c; ++k) out[k] = from[k];
      return;
    }
    case AugmentOp::kHsvShift: {
      // No shift at all keeps the image, as Albumentations (the HSV round trip is lossy); a
      // fractional one that truncates to none still makes the round trip, as there.
      if (stage_params.param == 0.f && stage_params.aux[0] == 0.f && stage_params.aux[1] == 0.f) return;
      const HsvShifts shift = HsvShiftsOf(stage_params.param, stage_params.aux[0], stage_params.aux[1]);
      if (!color_channels) {  // gray: the value shift alone (Albumentations converts to RGB and back)
        out[0] = static_cast<uint8_t>(
            px[0] + shift.val < 0 ? 0 : (px[0] + shift.val > 255 ? 255 : px[0] + shift.val));
        return;
      }
      HsvShiftPixel(px, shift.hue, shift.sat, shift.val, out);
      return;
    }
    case AugmentOp::kIsoNoise: {
      if (!color_channels) return;
      const float intensity = Clamped(stage_params.param, 0.f, kMaxIsoIntensity);
      IsoNoisePixel(stage_params.seed, static_cast<uint32_t>(size_t(y) * image_info.w + x), intensity,
                    Clamped(stage_params.aux[1], 0.f, 1.f) * intensity, stage_params.iso_lambda,
                    stage_params.iso_p0, px, out);
      return;
    }
    case AugmentOp::kClahe:
      if (stage_params.clahe_luts != nullptr)
        ClahePixel(stage_params.clahe_luts, stage_params.clahe, px, image_info.c, y, x, out);
      return;
    case AugmentOp::kSepia:
      if (color_channels) SepiaPixel(px, out);
      return;
    case AugmentOp::kChannelDropout: {
      const int bits = DroppedChannelBits(stage_params.param);
      const uint8_t level = LevelOf(stage_params.aux[1]);
      for (int k = 0; k < image_info.c; ++k)
        if (bits & (1 << k)) out[k] = level;
      return;
    }
    case AugmentOp::kPixelDropout:
    case AugmentOp::kPixelDropoutPerChannel:
      PixelDropoutPixel(stage_params.op == int(AugmentOp::kPixelDropoutPerChannel), stage_params.seed,
                        static_cast<uint32_t>(size_t(y) * image_info.w + x), stage_params.param,
                        stage_params.aux[1], px, image_info.c, out);
      return;
    case AugmentOp::kSaltAndPepper:
      SaltAndPepperPixel(stage_params.seed, static_cast<uint32_t>(size_t(y) * image_info.w + x),
                         stage_params.param, stage_params.aux[1], px, image_info.c, out);
      return;
    case AugmentOp::kMultiplicativeNoise:
    case AugmentOp::kMultiplicativeNoisePerChannel:
      MultiplicativeNoisePixel(stage_params.op == int(AugmentOp::kMultiplicativeNoisePerChannel),
                               stage_params.seed, static_cast<uint32_t>(size_t(y) * image_info.w + x),
                               stage_params.param, stage_params.aux[1], px, image_info.c, out);
      return;
    case AugmentOp::kUniformNoise:
    case AugmentOp::kUniformNoiseShared:
    case AugmentOp::kNormalNoise:
    case AugmentOp::kNormalNoiseShared:
    case AugmentOp::kLaplaceNoise:
    case AugmentOp::kLaplaceNoiseShared:
      AdditiveNoisePixel(stage_params.op, stage_params.seed,
                         static_cast<uint32_t>(size_t(y) * image_info.w + x), stage_params.param,
                         stage_params.aux[1], px, image_info.c, out);
      return;
    case AugmentOp::kIlluminationLinear:
    case AugmentOp::kIlluminationCorner:
    case AugmentOp::kIlluminationGaussian: {
      const float m = IlluminationFactor(stage_params.illumination, y, x, image_info.h, image_info.w);
      for (int k = 0; k < image_info.c; ++k)
        out[k] = IlluminatedByte(stage_params.op == int(AugmentOp::kIlluminationLinear), px[k], m);
      return;
    }
    case AugmentOp::kShotNoise: {
      const float scale = ShotScale(stage_params.param);
      for (int k = 0; k < image_info.c; ++k)
        out[k] = ShotByte(stage_params.seed, static_cast<uint32_t>(at + k), scale, px[k]);
      return;
    }
    case AugmentOp::kDihedral: {
      int sy, sx;
      DihedralSource(DihedralOf(stage_params.param, image_info.h, image_info.w), image_info.h, image_info.w,
                     y, x, &sy, &sx);
      const uint8_t* from = src + (size_t(sy) * image_info.w + sx) * image_info.c;
      for (int k = 0; k < image_info.c; ++k) out[k] = from[k];
      return;
    }
    case AugmentOp::kRgbShift: {
      if (!color_channels) return;
      const float shift[3] = {stage_params.param, stage_params.aux[0], stage_params.aux[1]};
      for (int k = 0; k < 3; ++k) out[k] = SaturateToUint8(float(px[k]) + floorf(shift[k] + 0.5f));
      return;
    }
    default:
      break;
  }
  if (IsAffineOp(stage_params.op)) {
    const AffineParams p{image_info.h,   image_info.w, image_info.c,
                         image_info.h,   image_info.w, image_info.interpolation,
                         image_info.fill};
    AffineSamplePixel(src, p, stage_params.matrix, y, x, out);
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_H_
