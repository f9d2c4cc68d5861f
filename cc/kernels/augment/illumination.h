// The illumination stages (Albumentations' Illumination on uint8): each pixel's bytes times a
// smooth factor m(y, x), as inline math shared by the CPU loops and the CUDA kernel.
//   linear:   Albumentations' directional gradient g in [0, 1] along the rows, the columns or a
//             diagonal (angles that are multiples of 45 degrees; the diagonals min-max
//             normalised), else x cos + y sin of the [0, 1] ramps (not normalised, as there);
//             g reversed (1 - g) for a negative intensity i, m = 2|i| g + 1 - |i|; the bytes as
//             float32_io rounds them: rint((v / 255) m 255).
//   corner:   m = 1 - i d / diagonal, d the Euclidean distance to a corner pixel;
//   gaussian: m = 1 + i exp(-((x - cx)^2 + (y - cy)^2) / (2 (sigma max(h, w))^2)), the
//             exponential taken as the product of its column and row factors;
//             both truncate v m, clipped, as cv2.multiply of the float image and the clip do.
// Every float step is one IEEE operation (no fused multiply-add), so the bytes are the same on
// both devices.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_ILLUMINATION_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_ILLUMINATION_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"
#include "cc/kernels/common/portable_math.h"

namespace tfgpuaug {

// The intensity is held to [-1, 1] (Albumentations allows 0.01 .. 0.2): the factors stay in
// [-2, 4] and every float-to-int conversion below stays defined; NaN means none.
constexpr float kMaxIlluminationIntensity = 1.f;
// The gaussian stage's centre is one number: 4096 qx + qy, each coordinate in 4095ths of its
// side (exact in a float).
constexpr int kIlluminationCentreSteps = 4095;

// How one axis enters the linear gradient: not at all, numpy's linspace(0, 1) ramp, its
// reverse linspace(1, 0), 1 - ramp (float32), or ramp times a float32 coefficient.
enum class RampTerm : int { kNone, kRamp, kReversed, kOneMinus, kScaled };

struct IlluminationParams {
  int kind;  // 0 linear, 1 corner, 2 gaussian (the op's offset from illumination_linear)
  float intensity;
  // linear: the two axis terms, g = (term_x + term_y) * scale + shift (cv2.normalize's min-max
  // rescale on the diagonals, scale 1 and shift 0 otherwise), reversed for a negative
  // intensity, then m = g * slope + base.
  RampTerm term_x, term_y;
  float coef_x, coef_y, scale, shift, slope, base;
  bool reversed;
  int corner_y, corner_x;  // corner: the pixel, and -intensity / diagonal
  float per_distance;
  float centre_y, centre_x, per_square;  // gaussian: centre in pixels, -1 / (2 (sigma side)^2)
};

// numpy's linspace(start, stop, n)[j] cast to float32: j * step + start in double, the last
// value stop itself.
TFGPUAUG_HD float LinspaceAt(int j, int n, double start, double stop) {
  if (n <= 1) return static_cast<float>(start);
  if (j == n - 1) return static_cast<float>(stop);
  return static_cast<float>(double(j) * ((stop - start) / double(n - 1)) + start);
}

TFGPUAUG_HD float RampTermAt(RampTerm term, int j, int n, float coef) {
  switch (term) {
    case RampTerm::kRamp:
      return LinspaceAt(j, n, 0.0, 1.0);
    case RampTerm::kReversed:
      return LinspaceAt(j, n, 1.0, 0.0);
    case RampTerm::kOneMinus:
      return 1.f - LinspaceAt(j, n, 0.0, 1.0);
    case RampTerm::kScaled:
      return LinspaceAt(j, n, 0.0, 1.0) * coef;
    default:
      return 0.f;
  }
}

// The least and greatest value of a diagonal's axis term (ramp or 1 - ramp) over n samples.
TFGPUAUG_HD void RampTermRange(RampTerm term, int n, float* least, float* greatest) {
  const float last = LinspaceAt(n - 1, n, 0.0, 1.0);
  *least = term == RampTerm::kOneMinus ? 1.f - last : 0.f;
  *greatest = term == RampTerm::kOneMinus ? 1.f : last;
}

// The linear stage's angle (in turns) as Albumentations builds the gradient for it.
TFGPUAUG_HD void LinearGradientOf(float turns, int h, int w, IlluminationParams* p) {
  p->term_x = p->term_y = RampTerm::kNone;
  p->coef_x = p->coef_y = 0.f;
  p->scale = 1.f;
  p->shift = 0.f;
  if (turns == 0.f || turns == 0.5f) {
    p->term_x = turns == 0.f ? RampTerm::kRamp : RampTerm::kReversed;
  } else if (turns == 0.25f || turns == 0.75f) {
    p->term_y = turns == 0.25f ? RampTerm::kRamp : RampTerm::kReversed;
  } else if (turns == 0.125f || turns == 0.375f || turns == 0.625f || turns == 0.875f) {
    p->term_x = (turns == 0.125f || turns == 0.875f) ? RampTerm::kRamp : RampTerm::kOneMinus;
    p->term_y = (turns == 0.125f || turns == 0.375f) ? RampTerm::kRamp : RampTerm::kOneMinus;
    float lx, gx, ly, gy;
    RampTermRange(p->term_x, w, &lx, &gx);
    RampTermRange(p->term_y, h, &ly, &gy);
    const double least = double(lx) + double(ly), span = double(gx) + double(gy) - least;
    const double scale = span > 2.220446049250313e-16 ? 1.0 / span : 0.0;  // cv2.normalize's rule
    p->scale = static_cast<float>(scale);
    p->shift = static_cast<float>(-least * scale);
  } else {
    const double angle = double(turns) * 6.283185307179586;
    p->term_x = p->term_y = RampTerm::kScaled;
    p->coef_x = static_cast<float>(cos(angle));
    p->coef_y = static_cast<float>(sin(angle));
  }
}

// The stage's numbers for an h x w image: op offset `kind` (0 linear, 1 corner, 2 gaussian),
// param the intensity, aux[0] the angle in turns, the corner (floor(4 aux[0]): 0 top-left, 1
// top-right, 2 bottom-right, 3 bottom-left) or the packed centre, aux[1] gaussian's sigma.
TFGPUAUG_HD IlluminationParams IlluminationParamsOf(int kind, float param, const float* aux, int h, int w) {
  IlluminationParams p{};
  p.kind = kind;
  const float i = param == param ? (param < -kMaxIlluminationIntensity  ? -kMaxIlluminationIntensity
                                    : param > kMaxIlluminationIntensity ? kMaxIlluminationIntensity
                                                                        : param)
                                 : 0.f;
  p.intensity = i;
  if (kind == 0) {
    const float a = fabsf(i);
    LinearGradientOf(aux[0] == aux[0] ? aux[0] - floorf(aux[0]) : 0.f, h, w, &p);
    p.reversed = i < 0.f;
    p.slope = 2.f * a;
    p.base = static_cast<float>(1.0 - double(a));
  } else if (kind == 1) {
    const float turn = aux[0] == aux[0] ? aux[0] - floorf(aux[0]) : 0.f;
    const int corner = static_cast<int>(turn * 4.f) & 3;
    p.corner_y = corner >= 2 ? h - 1 : 0;
    p.corner_x = (corner == 1 || corner == 2) ? w - 1 : 0;
    p.per_distance = static_cast<float>(-double(i) / sqrt(double(h) * h + double(w) * w));
  } else {
    const float packed = aux[0] >= 0.f ? (aux[0] <= 16777215.f ? aux[0] : 16777215.f) : 0.f;
    const int q = static_cast<int>(packed);  // qx = q >> 12 and qy = q & 4095, both <= 4095
    const double steps = kIlluminationCentreSteps;
    p.centre_x = static_cast<float>(double(w) * (double(q >> 12) / steps));
    p.centre_y = static_cast<float>(double(h) * (double(q & 4095) / steps));
    const double sigma = aux[1] > 1e-3f ? (aux[1] < 1e3f ? double(aux[1]) : 1e3) : 1e-3;  // NaN: the least
    const double side = sigma * double(h > w ? h : w);
    p.per_square = static_cast<float>(-1.0 / (2.0 * side * side));
  }
  return p;
}

// The linear stage's column term of column x, row term of row y (their sum is the gradient).
TFGPUAUG_HD float LinearColumnTerm(const IlluminationParams& p, int x, int w) {
  return RampTermAt(p.term_x, x, w, p.coef_x);
}
TFGPUAUG_HD float LinearRowTerm(const IlluminationParams& p, int y, int h) {
  return RampTermAt(p.term_y, y, h, p.coef_y);
}
// The linear factor from the two terms.
TFGPUAUG_HD float LinearFactor(const IlluminationParams& p, float column_term, float row_term) {
  float g = (column_term + row_term) * p.scale + p.shift;
  if (p.reversed) g = 1.f - g;
  return g * p.slope + p.base;
}

// The gaussian stage's column factor of x (row factor of y): exp((x - cx)^2 * per_square).
TFGPUAUG_HD float GaussianAxisFactor(float centre, float per_square, int x) {
  const float d = float(x) - centre;
  return ExpNonPositive((d * d) * per_square);
}
TFGPUAUG_HD float GaussianFactor(const IlluminationParams& p, float column_factor, float row_factor) {
  return (column_factor * row_factor) * p.intensity + 1.f;
}

TFGPUAUG_HD float CornerFactor(const IlluminationParams& p, int y, int x) {
  const float dy = float(y - p.corner_y), dx = float(x - p.corner_x);
  return sqrtf(dy * dy + dx * dx) * p.per_distance + 1.f;
}

// The factor of pixel (y, x) of an h x w image.
TFGPUAUG_HD float IlluminationFactor(const IlluminationParams& p, int y, int x, int h, int w) {
  if (p.kind == 0) return LinearFactor(p, LinearColumnTerm(p, x, w), LinearRowTerm(p, y, h));
  if (p.kind == 1) return CornerFactor(p, y, x);
  return GaussianFactor(p, GaussianAxisFactor(p.centre_x, p.per_square, x),
                        GaussianAxisFactor(p.centre_y, p.per_square, y));
}

// A byte times its factor: linear rounds half to even through v / 255 (float32_io), the
// others truncate v m; both clipped to [0, 255].
TFGPUAUG_HD uint8_t IlluminatedByte(bool linear, uint8_t v, float m) {
  const float t = linear ? rintf(((float(v) / 255.f) * m) * 255.f) : float(v) * m;
  return t >= 255.f ? 255 : (t > 0.f ? static_cast<uint8_t>(t) : 0);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_ILLUMINATION_H_
