#include "cc/kernels/augment/spatter_rain_cpu.h"

#include <algorithm>
#include <cstring>

#include "cc/kernels/augment/spatter_blur_cpu.h"
#include "cc/kernels/augment/spatter_rain.h"
#include "cc/kernels/warp/elastic_maps_cpu.h"

namespace tfgpuaug {
namespace {

// The scratch's parts for n pixels and rows of w (padded rows hold w + kMaxSpatterTaps).
struct RainScratch {
  double* blurred;     // the row-blurred liquid
  double* padded_row;  // a liquid row with its replicated ends
  double* sums;        // a row of the liquid's column sums
  float* noise;        // the noise, then the distances
  float* rows;         // row blurs (the magnitudes before them, as int32)
  float* relief;       // the clipped relief
  float* drops;        // the equalised layer / 255, then m
  float* padded_f;     // a float row with its replicated ends
  float* work;         // the distance transform's plane, (h + 4) (w + 4)
  uint32_t* stack;     // hysteresis
  uint8_t* level;      // the liquid's bytes
  uint8_t* cls;        // Canny's classes
  uint8_t* q;          // the softened distance's bytes
};

RainScratch Carve(uint8_t* scratch, int h, int w) {
  const size_t n = size_t(h) * w, padded = size_t(w) + kMaxSpatterTaps;
  RainScratch s;
  s.blurred = reinterpret_cast<double*>(scratch);
  s.padded_row = s.blurred + n;
  s.sums = s.padded_row + padded;
  s.noise = reinterpret_cast<float*>(s.sums + w);
  s.rows = s.noise + n;
  s.relief = s.rows + n;
  s.drops = s.relief + n;
  s.padded_f = s.drops + n;
  s.work = s.padded_f + padded;
  s.stack = reinterpret_cast<uint32_t*>(s.work + size_t(h + 4) * (w + 4));
  s.level = reinterpret_cast<uint8_t*>(s.stack + n);
  s.cls = s.level + n;
  s.q = s.cls + n;
  return s;
}

// The float32 rows of `plane` blurred by the taps (centred) into `out`, replicated ends.
void BlurRows(const float* centre, int r, const float* plane, int h, int w, float* padded, float* out) {
  for (int y = 0; y < h; ++y) {
    float* row = padded + r;
    std::memcpy(row, plane + size_t(y) * w, sizeof(float) * w);
    PadEnds(row, w, r);
    BlurPaddedRowFloat(centre, r, padded, w, out + size_t(y) * w);
  }
}

}  // namespace

size_t SpatterRainScratchBytes(int h, int w) {
  const size_t n = size_t(h) * w, padded = size_t(w) + kMaxSpatterTaps;
  return (n + padded + w) * sizeof(double) + (4 * n + padded + size_t(h + 4) * (w + 4)) * sizeof(float) +
         n * sizeof(uint32_t) + 3 * n;
}

void SpatterRainCpu(const uint8_t* image, int h, int w, const SpatterRainPlan& plan, uint8_t* scratch,
                    uint8_t* out) {
  const size_t n = size_t(h) * w;
  const SpatterParams& p = plan.params;
  if (p.intensity == 0.0) {  // the sample is left alone: the arithmetic would give back every byte
    std::memcpy(out, image, n * 3);
    return;
  }
  const RainScratch s = Carve(scratch, h, w);
  const int r1 = SpatterReach(plan.taps1, plan.t1);
  const double* c1 = plan.taps1 + plan.t1 / 2;
  // the liquid (as the mud mode), zeroed below the cutout, as bytes
  ElasticNoiseCpu(plan.seed, static_cast<uint32_t>(n), true, s.noise);
  for (int y = 0; y < h; ++y) {
    const float* z = s.noise + size_t(y) * w;
    double* row = s.padded_row + r1;
    for (int x = 0; x < w; ++x) row[x] = p.mean + p.std * double(z[x]);
    PadEnds(row, w, r1);
    BlurPaddedRowDouble(c1, r1, s.padded_row, w, s.blurred + size_t(y) * w);
  }
  for (int y = 0; y < h; ++y) {
    ColumnsDouble(c1, r1, s.blurred, h, w, y, s.sums);
    uint8_t* level = s.level + size_t(y) * w;
    for (int x = 0; x < w; ++x) level[x] = RainLevel(s.sums[x] < p.cutout ? 0.0 : s.sums[x]);
  }
  // Canny's edges
  // (the derivatives kept as 16-bit pairs in the relief's plane for the classes' pass)
  int* magnitude = reinterpret_cast<int*>(s.rows);
  int16_t* derivatives = reinterpret_cast<int16_t*>(s.relief);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      int dx, dy;
      RainSobel(s.level, h, w, y, x, &dx, &dy);
      const size_t e = size_t(y) * w + x;
      magnitude[e] = std::abs(dx) + std::abs(dy);
      derivatives[2 * e] = static_cast<int16_t>(dx);
      derivatives[2 * e + 1] = static_cast<int16_t>(dy);
    }
  }
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const size_t e = size_t(y) * w + x;
      s.cls[e] = RainCannyClass(magnitude, h, w, y, x, derivatives[2 * e], derivatives[2 * e + 1]);
    }
  }
  RainHysteresis(s.cls, h, w, s.stack);
  // the distance to the edges, truncated at 20, softened, as bytes; their histogram
  float* distance = s.noise;
  RainDistance(s.cls, h, w, s.work, distance);
  for (size_t e = 0; e < n; ++e) distance[e] = distance[e] > 20.f ? 20.f : distance[e];
  float soften[3], smooth[5];
  for (int k = 0; k < 3; ++k) soften[k] = RainSoftenTap(k);
  for (int k = 0; k < 5; ++k) smooth[k] = RainSmoothTap(k);
  BlurRows(soften + 1, 1, distance, h, w, s.padded_f, s.rows);
  uint32_t hist[256] = {};
  float* sums = reinterpret_cast<float*>(s.sums);
  for (int y = 0; y < h; ++y) {
    ColumnsFloat(soften + 1, 1, s.rows, h, w, y, sums);
    uint8_t* q = s.q + size_t(y) * w;
    for (int x = 0; x < w; ++x) ++hist[q[x] = RainDistanceByte(sums[x])];
  }
  // equalised, back to [0, 1], the relief, clipped
  uint8_t table[256];
  RainEqualizeTable(hist, static_cast<uint32_t>(n), table);
  for (size_t e = 0; e < n; ++e) s.drops[e] = float(table[s.q[e]]) / 255.f;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) s.relief[size_t(y) * w + x] = RainRelief(s.drops, h, w, y, x);
  // smoothed, times the liquid's bytes: m, over its peak
  BlurRows(smooth + 2, 2, s.relief, h, w, s.padded_f, s.rows);
  float peak = 0.f;
  for (int y = 0; y < h; ++y) {
    float* m = s.drops + size_t(y) * w;
    ColumnsFloat(smooth + 2, 2, s.rows, h, w, y, m);
    const uint8_t* level = s.level + size_t(y) * w;
    for (int x = 0; x < w; ++x) {
      m[x] = float(level[x]) * m[x];
      peak = std::max(peak, m[x]);
    }
  }
  const float scale = peak > 0.f ? 1.f / peak : 0.f;
  const double strength = p.intensity * 0.9;
  double colour[3];
  for (int k = 0; k < 3; ++k) colour[k] = plan.colour[k] / 255.0;
  for (size_t e = 0; e < n; ++e) {
    const float m = s.drops[e] * scale;
    for (int k = 0; k < 3; ++k) out[3 * e + k] = RainByte(image[3 * e + k], m, colour[k], strength);
  }
}

}  // namespace tfgpuaug
