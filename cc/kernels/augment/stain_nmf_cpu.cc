#include "cc/kernels/augment/stain_nmf_cpu.h"

#include <algorithm>

#include "cc/kernels/augment/stain_nmf.h"

namespace tfgpuaug {
namespace {

// The lanes' sums folded by the halving tree the CUDA block uses (lane t takes lane t + half).
void FoldLanes(double (*lanes)[kNmfLanes], double* sums) {
  for (int half = kNmfLanes / 2; half >= 1; half /= 2) {
    for (int k = 0; k < kNmfSums; ++k) {
      for (int t = 0; t < half; ++t) lanes[k][t] += lanes[k][t + half];
    }
  }
  for (int k = 0; k < kNmfSums; ++k) sums[k] = lanes[k][0];
}

// One round over the pixels: a block of kNmfLanes pixels at a time, pixel base + t in lane t
// (the lanes are independent, so the loop vectorises).
void LaneRound(const float* __restrict d0, const float* __restrict d1, const float* __restrict d2,
               float* __restrict s0, float* __restrict s1, size_t pixels, const double* c, const double* g,
               double (*lanes)[kNmfLanes]) {
  for (size_t base = 0; base < pixels; base += kNmfLanes) {
    const int count = static_cast<int>(std::min<size_t>(kNmfLanes, pixels - base));
    for (int t = 0; t < count; ++t) {
      double lane[kNmfSums] = {lanes[0][t], lanes[1][t], lanes[2][t], lanes[3][t], lanes[4][t],
                               lanes[5][t], lanes[6][t], lanes[7][t], lanes[8][t]};
      NmfPixel(d0[base + t], d1[base + t], d2[base + t], c, g, s0[base + t], s1[base + t], lane);
      for (int k = 0; k < kNmfSums; ++k) lanes[k][t] = lane[k];
    }
  }
}

}  // namespace

size_t StainNmfScratchFloats(size_t pixels) { return 5 * pixels; }

void StainNmfCpu(const uint8_t* image, size_t pixels, const float* densities, float* scratch, float* rows) {
  // planes of the densities and concentrations, so a block's lanes load side by side
  float* __restrict d0 = scratch;
  float* __restrict d1 = scratch + pixels;
  float* __restrict d2 = scratch + 2 * pixels;
  float* __restrict s0 = scratch + 3 * pixels;
  float* __restrict s1 = scratch + 4 * pixels;
  for (size_t p = 0; p < pixels; ++p) {
    d0[p] = densities[image[3 * p]];
    d1[p] = densities[image[3 * p + 1]];
    d2[p] = densities[image[3 * p + 2]];
  }
  double c[6], unit[6], g[4];
  for (int i = 0; i < 6; ++i) c[i] = unit[i] = NmfStartColour(i);
  NmfUnitRows(unit);
  for (size_t p = 0; p < pixels; ++p) {
    const float d[3] = {d0[p], d1[p], d2[p]};
    float s[2];
    NmfStart(d, unit, s);
    s0[p] = s[0];
    s1[p] = s[1];
  }
  alignas(64) double lanes[kNmfSums][kNmfLanes];
  double sums[kNmfSums];
  for (int round = 0; round < kNmfRounds; ++round) {
    NmfGram(c, g);
    for (int k = 0; k < kNmfSums; ++k) std::fill(lanes[k], lanes[k] + kNmfLanes, 0.0);
    LaneRound(d0, d1, d2, s0, s1, pixels, c, g, lanes);
    FoldLanes(lanes, sums);
    NmfColours(sums, c);
  }
  for (int i = 0; i < 6; ++i) rows[i] = static_cast<float>(c[i]);
}

}  // namespace tfgpuaug
