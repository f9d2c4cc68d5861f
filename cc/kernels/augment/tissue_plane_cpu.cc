#include "cc/kernels/augment/tissue_plane_cpu.h"

#include "cc/kernels/augment/tissue_plane.h"

namespace tfgpuaug {

int64_t TissuePlaneCpu(const uint8_t* image, size_t pixels, const float* densities, double* plane,
                       double* coordinates, float* keys, bool* tissue) {
  double lanes[kTissueLanes][kTissueSums] = {};
  for (size_t p = 0; p < pixels; ++p) {  // pixel p in lane p mod kTissueLanes, in order
    const float d[3] = {densities[image[3 * p]], densities[image[3 * p + 1]], densities[image[3 * p + 2]]};
    tissue[p] = TissueAdd(d, lanes[p % kTissueLanes]);
  }
  for (int half = kTissueLanes / 2; half >= 1; half /= 2) {  // the CUDA block's fold
    for (int t = 0; t < half; ++t) {
      for (int k = 0; k < kTissueSums; ++k) lanes[t][k] += lanes[t + half][k];
    }
  }
  double cov[9];
  TissueCovariance(lanes[0], cov);
  TissuePlane(cov, plane);
  for (size_t p = 0; p < pixels; ++p) {
    const float d[3] = {densities[image[3 * p]], densities[image[3 * p + 1]], densities[image[3 * p + 2]]};
    TissueCoordinates(d, tissue[p], plane, coordinates + 2 * p, keys + p);
  }
  return static_cast<int64_t>(lanes[0][0]);
}

}  // namespace tfgpuaug
