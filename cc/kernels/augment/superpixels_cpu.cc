#include "cc/kernels/augment/superpixels_cpu.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "cc/kernels/augment/superpixels.h"

namespace tfgpuaug {
namespace {

// Where each part of the scratch starts (bytes; every part 8-byte aligned).
struct SlicScratch {
  double* best;                // [h w] each pixel's best distance so far
  double* colours;             // [256] byte -> normalised colour
  double* spatial;             // [2 step^2 + 1] the spatial distance of dy^2 + dx^2
  unsigned long long* counts;  // [3 k] pixels, row sum, column sum of each label
  unsigned long long* sums;    // [c k] channel sums of each label
  int32_t* labels;             // [h w]
  int32_t* centres;            // [2 k] column, row
  uint8_t* chosen;             // [k]
  size_t bytes;
};

size_t Aligned(size_t bytes) { return (bytes + 7) & ~size_t{7}; }

SlicScratch Layout(int h, int w, int c, int n, uint8_t* base) {
  const size_t pixels = size_t(h) * w;
  const int step = SlicStep(h, w, n);
  const size_t k = std::max(SlicCentres(h, w, n), 1);
  const size_t spatial = 2 * size_t(step) * step + 1;
  SlicScratch s{};
  size_t at = 0;
  const auto take = [&](size_t bytes) {
    uint8_t* p = base == nullptr ? nullptr : base + at;
    at += Aligned(bytes);
    return p;
  };
  s.best = reinterpret_cast<double*>(take(pixels * sizeof(double)));
  s.colours = reinterpret_cast<double*>(take(256 * sizeof(double)));
  s.spatial = reinterpret_cast<double*>(take(spatial * sizeof(double)));
  s.counts = reinterpret_cast<unsigned long long*>(take(3 * k * sizeof(unsigned long long)));
  s.sums = reinterpret_cast<unsigned long long*>(take(size_t(c) * k * sizeof(unsigned long long)));
  s.labels = reinterpret_cast<int32_t*>(take(pixels * sizeof(int32_t)));
  s.centres = reinterpret_cast<int32_t*>(take(2 * k * sizeof(int32_t)));
  s.chosen = take(k);
  s.bytes = at;
  return s;
}

// One SLIC round's assignment: each centre in order over its window (Albumentations' loop).
void AssignRound(const uint8_t* image, int h, int w, int c, int k, int step, const SlicScratch& s) {
  for (int i = 0; i < k; ++i) {
    const int cx = s.centres[2 * i], cy = s.centres[2 * i + 1];
    const uint8_t* centre = image + (size_t(cy) * w + cx) * c;
    const int y0 = std::max(0, cy - step), y1 = std::min(h, cy + step + 1);
    const int x0 = std::max(0, cx - step), x1 = std::min(w, cx + step + 1);
    for (int y = y0; y < y1; ++y) {
      const int dy = y - cy;
      const size_t row = size_t(y) * w;
      for (int x = x0; x < x1; ++x) {
        const int dx = x - cx;
        const size_t squares = size_t(int64_t{dy} * dy + int64_t{dx} * dx);
        const double d = SlicColourDistance(image + (row + x) * c, centre, c, s.colours) + s.spatial[squares];
        if (d < s.best[row + x]) {
          s.best[row + x] = d;
          s.labels[row + x] = i;
        }
      }
    }
  }
}

// Each label's pixel count and row and column sums; each centre with pixels moves to their mean.
void MoveCentres(int h, int w, int k, const SlicScratch& s) {
  std::fill(s.counts, s.counts + 3 * size_t(k), 0ull);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      unsigned long long* at = s.counts + 3 * size_t(s.labels[size_t(y) * w + x]);
      at[0] += 1;
      at[1] += y;
      at[2] += x;
    }
  }
  for (int i = 0; i < k; ++i) {
    const unsigned long long count = s.counts[3 * i];
    if (count == 0) continue;
    s.centres[2 * i] = static_cast<int32_t>(s.counts[3 * i + 2] / count);
    s.centres[2 * i + 1] = static_cast<int32_t>(s.counts[3 * i + 1] / count);
  }
}

}  // namespace

size_t SuperpixelsScratchBytes(int h, int w, int c, int n) { return Layout(h, w, c, n, nullptr).bytes; }

void SuperpixelsCpu(const uint8_t* image, int h, int w, int c, int n, const uint8_t* flags, uint8_t* scratch,
                    uint8_t* out) {
  const size_t pixels = size_t(h) * w, bytes = pixels * c;
  std::memcpy(out, image, bytes);
  if (pixels == 0 || c == 0 || !SlicAnyFlag(flags, n)) return;
  const SlicScratch s = Layout(h, w, c, n, scratch);
  const int step = SlicStep(h, w, n), k = SlicCentres(h, w, n);
  const double top = static_cast<double>(*std::max_element(image, image + bytes)) + 1e-6;
  for (int v = 0; v < 256; ++v) s.colours[v] = static_cast<double>(v) / top;
  for (size_t q = 0; q <= 2 * size_t(step) * step; ++q) {
    s.spatial[q] = SlicSpatialDistance(static_cast<long long>(q), step);
  }
  // labels start at 0 rather than numpy's -1: every pixel is within reach of a centre in the
  // first round, so none keeps it; an image without centres is one segment (k = 0).
  std::fill(s.labels, s.labels + pixels, 0);
  std::fill(s.best, s.best + pixels, std::numeric_limits<double>::infinity());
  for (int i = 0; i < k; ++i) SlicStart(i, w, step, s.centres + 2 * i, s.centres + 2 * i + 1);
  for (int round = 0; round < kSlicRounds && k > 0; ++round) {
    AssignRound(image, h, w, c, k, step, s);
    MoveCentres(h, w, k, s);
  }
  const int labels = std::max(k, 1);
  if (k == 0) s.counts[0] = pixels;
  SlicChosen(s.counts, k, flags, n, s.chosen);
  std::fill(s.sums, s.sums + size_t(c) * labels, 0ull);
  for (size_t p = 0; p < pixels; ++p) {
    unsigned long long* sum = s.sums + size_t(s.labels[p]) * c;
    for (int j = 0; j < c; ++j) sum[j] += image[p * c + j];
  }
  for (size_t p = 0; p < pixels; ++p) {
    const int label = s.labels[p];
    if (!s.chosen[label]) continue;
    for (int j = 0; j < c; ++j)
      out[p * c + j] = SlicRoundedMean(s.sums[size_t(label) * c + j], s.counts[3 * label]);
  }
}

}  // namespace tfgpuaug
