// The first half of Macenko et al.'s stain fit (tfgpuaug.augment.he_stain's "macenko") for one
// uint8 RGB image: each pixel's float32 optical density (a table, made by the caller), tissue
// where some channel's density is above 0.05; the tissue densities' covariance in float64
// (sums over pixels in kTissueLanes lanes folded by a halving tree, so the CPU loop and the CUDA
// kernel add in one order), its two leading eigenvectors by cyclic Jacobi rotations (each signed
// so its red component is not negative), and each tissue pixel's coordinates in that plane with
// a float32 key that orders them as atan2 does (the "diamond angle"). Inline math shared by both.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

constexpr int kTissueLanes = 256;  // a power of two: the fold halves it
constexpr int kTissueSums = 10;    // count, then sums of d0, d1, d2, then d0d0, d0d1, d0d2, d1d1, d1d2, d2d2
constexpr float kTissueDensity = 0.05f;

// Whether a pixel of densities d is tissue, and its terms added to a lane's sums.
TFGPUAUG_HD bool TissueAdd(const float* d, double* sums) {
  if (!(d[0] > kTissueDensity || d[1] > kTissueDensity || d[2] > kTissueDensity)) return false;
  const double a = d[0], b = d[1], c = d[2];
  sums[0] += 1.0;
  sums[1] += a;
  sums[2] += b;
  sums[3] += c;
  sums[4] += a * a;
  sums[5] += a * b;
  sums[6] += a * c;
  sums[7] += b * b;
  sums[8] += b * c;
  sums[9] += c * c;
  return true;
}

// The covariance [3, 3] from the folded sums: (X^T X - n mean^T mean) / max(n - 1, 1), mean = sum / max(n,
// 1).
TFGPUAUG_HD void TissueCovariance(const double* sums, double* cov) {
  const double n = sums[0], total = n > 1.0 ? n : 1.0, divisor = n - 1.0 > 1.0 ? n - 1.0 : 1.0;
  const double mean[3] = {sums[1] / total, sums[2] / total, sums[3] / total};
  const int at[3][3] = {{4, 5, 6}, {5, 7, 8}, {6, 8, 9}};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) cov[3 * i + j] = (sums[at[i][j]] - total * (mean[i] * mean[j])) / divisor;
  }
}

// The plane [3, 2] (row-major: component i of vector j at 2 i + j) of a symmetric cov [3, 3]'s
// largest and second eigenvectors, by cyclic Jacobi rotations, each signed so its first component
// is not negative. A zero matrix gives the unit vectors (as LAPACK's).
TFGPUAUG_HD void TissuePlane(const double* cov, double* plane) {
  double a[9], v[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int i = 0; i < 9; ++i) a[i] = cov[i];
  for (int sweep = 0; sweep < 64; ++sweep) {
    const double off = fabs(a[1]) + fabs(a[2]) + fabs(a[5]);
    if (off == 0.0) break;
    for (int p = 0; p < 2; ++p) {
      for (int q = p + 1; q < 3; ++q) {
        const double apq = a[3 * p + q];
        if (apq == 0.0) continue;
        const double theta = (a[3 * q + q] - a[3 * p + p]) / (2.0 * apq);
        const double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; ++k) {  // columns p, q of a
          const double akp = a[3 * k + p], akq = a[3 * k + q];
          a[3 * k + p] = c * akp - s * akq;
          a[3 * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {  // rows p, q
          const double apk = a[3 * p + k], aqk = a[3 * q + k];
          a[3 * p + k] = c * apk - s * aqk;
          a[3 * q + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) {
          const double vkp = v[3 * k + p], vkq = v[3 * k + q];
          v[3 * k + p] = c * vkp - s * vkq;
          v[3 * k + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  // eigenvalues a[0], a[4], a[8]: the largest, then the second (ties: the later column, as an
  // ascending sort that keeps order and takes the last two)
  int order[3] = {0, 1, 2};
  for (int i = 1; i < 3; ++i) {
    for (int j = i; j > 0 && a[4 * order[j - 1]] > a[4 * order[j]]; --j) {
      const int keep = order[j];
      order[j] = order[j - 1];
      order[j - 1] = keep;
    }
  }
  for (int j = 0; j < 2; ++j) {
    const int col = order[2 - j];
    const double sign = v[col] < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; ++i) plane[2 * i + j] = sign * v[3 * i + col];
  }
}

// A key in (-2, 2] that orders (x, y) as atan2(y, x) does, in float32 as tfgpuaug.augment.he_stain's
// _pseudo_angle computes it.
TFGPUAUG_HD float TissueKey(float y, float x) {
  float s = fabsf(x) + fabsf(y);
  s = s > 0.0f ? s : 1.0f;
  const float upper = x >= 0.0f ? y / s : 1.0f - x / s;
  const float lower = x >= 0.0f ? x / s - 1.0f : -2.0f - y / s;
  return y >= 0.0f ? upper : lower;
}

// A tissue pixel's coordinates in the plane (float64) and key; background pixels get zeros.
TFGPUAUG_HD void TissueCoordinates(const float* d, bool tissue, const double* plane, double* xy, float* key) {
  if (!tissue) {
    xy[0] = xy[1] = 0.0;
    *key = TissueKey(0.0f, 0.0f);
    return;
  }
  const double a = d[0], b = d[1], c = d[2];
  xy[0] = a * plane[0] + b * plane[2] + c * plane[4];
  xy[1] = a * plane[1] + b * plane[3] + c * plane[5];
  *key = TissueKey(static_cast<float>(xy[1]), static_cast<float>(xy[0]));
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_TISSUE_PLANE_H_
