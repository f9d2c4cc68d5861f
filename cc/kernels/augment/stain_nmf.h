// Albumentations' "vahadane" stain fit (its SimpleNMF, 2.0.8): the optical densities D [N, 3] of an
// RGB image's N pixels (a table of a byte's density, float32: numpy's -log(max(v / 255, 1e-6)),
// made by the caller) factored as
// D ~ S C by 100 rounds of multiplicative updates from Ruifrok's hematoxylin and eosin rows C0
// (S starts as max(D C0n^T, 0), C0n the unit rows):
//   S <- max(S * (D C^T) / (S (C C^T) + 1e-6), 0)
//   C <- max(C * (S^T D) / ((S^T S) C + 1e-6), 0), rows made unit.
// Arithmetic in float64 (Albumentations' is float32 BLAS: the rows agree within 1e-5 on H&E-like
// images, 6e-4 on photos), S kept in float32 between rounds as numpy keeps it. The sums over pixels run in
// kNmfLanes lanes (pixel p in lane p mod kNmfLanes, in order) folded by a fixed halving tree, so the CPU loop
// and the CUDA kernel (one block an image, a thread a lane) add in the same order: the same bits. Inline math
// shared by both.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_H_

#include <cmath>
#include <cstdint>
#include <cstring>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

constexpr int kNmfRounds = 100;
constexpr int kNmfLanes = 256;  // a power of two: the fold halves it
constexpr int kNmfSums = 9;     // S^T D (6: stain-major), then S^T S (3: 00, 01, 11)
constexpr double kNmfEpsilon = 1e-6;

// Ruifrok's rows (float32 in Albumentations), hematoxylin then eosin.
TFGPUAUG_HD float NmfStartColour(int i) {
  const float rows[6] = {0.644211f, 0.716556f, 0.266844f, 0.092789f, 0.954111f, 0.283111f};
  return rows[i];
}

// Rows of c [2, 3] made unit (numpy's v / sqrt(sum v^2)); a zero row becomes NaN, as numpy's.
TFGPUAUG_HD void NmfUnitRows(double* c) {
  for (int j = 0; j < 2; ++j) {
    const double norm = sqrt(c[3 * j] * c[3 * j] + c[3 * j + 1] * c[3 * j + 1] + c[3 * j + 2] * c[3 * j + 2]);
    for (int k = 0; k < 3; ++k) c[3 * j + k] = c[3 * j + k] / norm;
  }
}

// g = c c^T [2, 2] for the rows c [2, 3].
TFGPUAUG_HD void NmfGram(const double* c, double* g) {
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j)
      g[2 * i + j] = c[3 * i] * c[3 * j] + c[3 * i + 1] * c[3 * j + 1] + c[3 * i + 2] * c[3 * j + 2];
  }
}

// max(x, 0) as np.maximum for the values that reach it (no NaN: every denominator is at least
// 1e-6): the bits cleared where the sign is set, so -0.0 becomes 0 and no compare stops the
// CPU's lane loop from vectorising.
TFGPUAUG_HD double NmfClamp(double x) {
#if defined(__CUDA_ARCH__)
  const long long bits = __double_as_longlong(x);
  return __longlong_as_double(bits & ~(bits >> 63));
#else
  int64_t bits;
  std::memcpy(&bits, &x, 8);
  bits &= ~(bits >> 63);
  std::memcpy(&x, &bits, 8);
  return x;
#endif
}

// A pixel's starting concentrations: max(d . c0n_j, 0) for the unit start rows c0n.
TFGPUAUG_HD void NmfStart(const float* d, const double* unit, float* s) {
  for (int j = 0; j < 2; ++j) {
    s[j] = static_cast<float>(NmfClamp(d[0] * unit[3 * j] + d[1] * unit[3 * j + 1] + d[2] * unit[3 * j + 2]));
  }
}

// One pixel's round: its densities d0..d2 and concentrations s0, s1 (updated) from the rows
// c [2, 3] and g = c c^T; its terms added to the lane's sums [kNmfSums].
TFGPUAUG_HD void NmfPixel(float d0, float d1, float d2, const double* c, const double* g, float& s0,
                          float& s1, double* sums) {
  const double a = s0, b = s1;
  const double n0 = d0 * c[0] + d1 * c[1] + d2 * c[2], n1 = d0 * c[3] + d1 * c[4] + d2 * c[5];
  const double t0 = a * g[0] + b * g[2], t1 = a * g[1] + b * g[3];
  const double x = static_cast<float>(NmfClamp(a * (n0 / (t0 + kNmfEpsilon))));
  const double y = static_cast<float>(NmfClamp(b * (n1 / (t1 + kNmfEpsilon))));
  s0 = static_cast<float>(x);
  s1 = static_cast<float>(y);
  sums[0] += x * d0;
  sums[1] += x * d1;
  sums[2] += x * d2;
  sums[3] += y * d0;
  sums[4] += y * d1;
  sums[5] += y * d2;
  sums[6] += x * x;
  sums[7] += x * y;
  sums[8] += y * y;
}

// The rows' round from the folded sums: c <- max(c * (S^T D) / ((S^T S) c + eps), 0), unit rows.
TFGPUAUG_HD void NmfColours(const double* sums, double* c) {
  const double gram[4] = {sums[6], sums[7], sums[7], sums[8]};
  double next[6];
  for (int j = 0; j < 2; ++j) {
    for (int k = 0; k < 3; ++k) {
      const double denominator = gram[2 * j] * c[k] + gram[2 * j + 1] * c[3 + k];
      next[3 * j + k] = NmfClamp(c[3 * j + k] * (sums[3 * j + k] / (denominator + kNmfEpsilon)));
    }
  }
  for (int i = 0; i < 6; ++i) c[i] = next[i];
  NmfUnitRows(c);
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_H_
