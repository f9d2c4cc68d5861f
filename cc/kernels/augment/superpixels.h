// Albumentations' Superpixels (2.0.8) as its own functions state it, for one uint8 image [h, w, c]
// and a sample's draws (n segments, replace flags [m]):
//   - if no flag of the first n is set, the image is left as it is;
//   - its SLIC: colours v / (max byte + 1e-6) in float64; centres on the grid of side
//     step = int(sqrt(h w / n)) from step // 2, row by row; 10 rounds of: for each centre in
//     order, each pixel within step rows and columns of it takes the centre's label where
//     sum_k (colour_k - centre colour_k)^2 + 10 (dy^2 + dx^2) / step^2 is below the pixel's best
//     distance so far (kept across rounds, never reset); then each centre that has pixels moves
//     to their mean row and column, truncated (numpy stores the mean into an integer array);
//   - the labels present, ascending, label 0 dropped when present; the i-th of the rest is
//     replaced when flag (i mod n) is set: each channel of its pixels becomes the rounded mean of
//     that channel there (numpy's round: ties to even). An image too thin for any centre is one
//     segment (numpy's label -1), replaced when flag 0 is set.
// Where Albumentations raises (n above h w makes the step 0), the step is 1 here. The float64
// arithmetic runs in numpy's order with contraction off on both builds, so the labels match.
// Inline math shared by the CPU loop and the CUDA kernel.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/common/host_device.h"

namespace tfgpuaug {

constexpr int kSlicRounds = 10;          // Albumentations' max_iterations
constexpr double kSlicCompactness = 10;  // its compactness

// int((h w / n) ** 0.5), at least 1; n is at least 1.
TFGPUAUG_HD int SlicStep(int h, int w, int n) {
  const int step = static_cast<int>(sqrt(static_cast<double>(h) * w / n));
  return step > 0 ? step : 1;
}

// len(numpy.arange(step // 2, size, step)): the centres along one side.
TFGPUAUG_HD int SlicCentresAlong(int size, int step) {
  const int first = step / 2;
  return first < size ? (size - first + step - 1) / step : 0;
}

// The centres a sample starts with (rows times columns; 0 for an image too thin for any).
TFGPUAUG_HD int SlicCentres(int h, int w, int n) {
  const int step = SlicStep(h, w, n);
  return SlicCentresAlong(h, step) * SlicCentresAlong(w, step);
}

// Centre i's starting column and row.
TFGPUAUG_HD void SlicStart(int i, int w, int step, int* x, int* y) {
  const int across = SlicCentresAlong(w, step);
  *x = step / 2 + (i % across) * step;
  *y = step / 2 + (i / across) * step;
}

// The colour part of the distance: numpy's sum over channels of the squared differences of the
// normalised colours (table[byte]), added in channel order from 0.
TFGPUAUG_HD double SlicColourDistance(const uint8_t* pixel, const uint8_t* centre, int c,
                                      const double* table) {
  double sum = 0.0;
  for (int k = 0; k < c; ++k) {
    const double d = table[pixel[k]] - table[centre[k]];
    sum += d * d;
  }
  return sum;
}

// The spatial part of a pixel dy rows and dx columns from the centre (squares = dy^2 + dx^2):
// compactness times squares / step^2, the division in float64 as numpy's.
TFGPUAUG_HD double SlicSpatialDistance(long long squares, int step) {
  return kSlicCompactness * (static_cast<double>(squares) / (static_cast<double>(step) * step));
}

// numpy's round(sum / count) for a mean of bytes (count > 0): to nearest, ties to even.
TFGPUAUG_HD uint8_t SlicRoundedMean(unsigned long long sum, unsigned long long count) {
  unsigned long long q = sum / count;
  const unsigned long long twice = 2 * (sum - q * count);
  if (twice > count || (twice == count && (q & 1))) ++q;
  return static_cast<uint8_t>(q > 255 ? 255 : q);
}

// Which of k labels are replaced (chosen[i] = 1), from their pixel counts (counts[3 i], a stride
// of 3: count, row sum, column sum) and the flags; k = 0 is the one unlabelled segment, chosen[0].
TFGPUAUG_HD void SlicChosen(const unsigned long long* counts, int k, const uint8_t* flags, int n,
                            uint8_t* chosen) {
  if (k == 0) {
    chosen[0] = flags[0] ? 1 : 0;
    return;
  }
  int rank = 0;
  for (int i = 0; i < k; ++i) {
    chosen[i] = 0;
    if (counts[3 * i] == 0 || i == 0) continue;  // absent, or label 0 (dropped when present)
    chosen[i] = flags[rank % n] ? 1 : 0;
    ++rank;
  }
}

// Whether any of the first n flags is set (else Albumentations returns the image untouched).
TFGPUAUG_HD bool SlicAnyFlag(const uint8_t* flags, int n) {
  for (int i = 0; i < n; ++i) {
    if (flags[i]) return true;
  }
  return false;
}

// A sample's segment count clamped to [1, m] (m: the flags a sample has).
TFGPUAUG_HD int SlicSegments(int n, int m) { return n < 1 ? 1 : (n > m ? m : n); }

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_H_
