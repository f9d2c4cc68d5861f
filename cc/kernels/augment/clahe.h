// Contrast-limited adaptive histogram equalisation as OpenCV's cv::CLAHE computes it on 8-bit
// images (what Albumentations' CLAHE calls, on the L of L*a*b* for RGB): a lookup table per
// tile from its clipped histogram, each pixel the bilinear blend of its four nearest tiles'
// tables. The per-tile and per-pixel steps are shared by the CPU driver and the CUDA kernels.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_H_

#include <cmath>
#include <cstdint>

#include "cc/kernels/augment/opencv_lab.h"
#include "cc/kernels/common/border.h"
#include "cc/kernels/common/host_device.h"
#include "cc/kernels/common/portable_math.h"

namespace tfgpuaug {

constexpr int kMaxClaheTilesPerSide = 16;
constexpr int kMaxClaheTiles = kMaxClaheTilesPerSide * kMaxClaheTilesPerSide;
constexpr int kDefaultClaheTiles = 8;

// The tile grid of one image. As OpenCV: when the image does not divide into the grid it is
// extended at the bottom and right (reflect-101) by `tiles - size % tiles` pixels on BOTH
// axes (a whole extra row of tiles' worth where one axis divided evenly), and the tiles are
// the extended size over the grid.
struct ClaheGrid {
  int tiles_x, tiles_y, tile_w, tile_h;
};

// Tiles along one side from a stage's aux number: 1 .. 16, rounded; below 1 (policies' uniform
// aux numbers) or NaN: the default 8.
TFGPUAUG_HD int ClaheTiles(float a) {
  if (!(a >= 1.f)) return kDefaultClaheTiles;
  return a >= float(kMaxClaheTilesPerSide) ? kMaxClaheTilesPerSide : static_cast<int>(a + 0.5f);
}

TFGPUAUG_HD ClaheGrid ClaheGridOf(float tiles_x, float tiles_y, int h, int w) {
  ClaheGrid g;
  g.tiles_x = ClaheTiles(tiles_x);
  g.tiles_y = ClaheTiles(tiles_y);
  const bool even = w % g.tiles_x == 0 && h % g.tiles_y == 0;
  g.tile_w = (even ? w : w + g.tiles_x - w % g.tiles_x) / g.tiles_x;
  g.tile_h = (even ? h : h + g.tiles_y - h % g.tiles_y) / g.tiles_y;
  return g;
}

// The clip limit in counts per bin (OpenCV: clipLimit * tile pixels / 256, truncated, at least
// 1); 0 (no limit) for a limit <= 0 or NaN. Limits >= 256 cannot clip, so they are capped there.
TFGPUAUG_HD int64_t ClaheClipCount(float clip_limit, int64_t tile_pixels) {
  if (!(clip_limit > 0.f)) return 0;
  const double c = clip_limit < 256.f ? double(clip_limit) : 256.0;
  const int64_t count = static_cast<int64_t>(c * double(tile_pixels) / 256.0);
  return count > 1 ? count : 1;
}

// A tile's 256-bin histogram (overwritten) into its table: bins clipped at `clip_count`, the
// excess spread evenly and its remainder one count per `256 / remainder` bins from the
// darkest; then the cumulative sum times 255 / pixels, rounded half to even. The clipping and
// the scaling are loops without branches or a carried sum, which compilers vectorize; the
// cumulative sum is its own short serial loop.
TFGPUAUG_HD void ClaheTileLut(uint32_t* hist, int64_t tile_pixels, int64_t clip_count, uint8_t* lut) {
  if (clip_count > 0) {
    // a bin never exceeds the tile's pixels, so the clip fits 32 bits and so does the excess
    const uint32_t clip = static_cast<uint32_t>(clip_count < tile_pixels ? clip_count : tile_pixels);
    uint32_t clipped = 0;
    for (int i = 0; i < 256; ++i) {
      const uint32_t kept = hist[i] < clip ? hist[i] : clip;
      clipped += hist[i] - kept;
      hist[i] = kept;
    }
    const uint32_t batch = clipped / 256;
    uint32_t residual = clipped - batch * 256;
    for (int i = 0; i < 256; ++i) hist[i] += batch;
    if (residual != 0) {
      const uint32_t step = 256 / residual > 1 ? 256 / residual : 1;
      for (uint32_t i = 0; i < 256 && residual > 0; i += step, --residual) ++hist[i];
    }
  }
  for (int i = 1; i < 256; ++i) hist[i] += hist[i - 1];
  const float scale = 255.f / float(tile_pixels);
  // RoundThenClampToUint8: RoundHalfEvenToUint8's value with no float comparison
  for (int i = 0; i < 256; ++i) lut[i] = RoundThenClampToUint8(float(hist[i]) * scale);
}

// The two tiles a pixel position blends along one axis and their weights (OpenCV's float
// steps: pos / tile - 0.5, floored, clamped to the grid).
struct ClaheTaps {
  int first, second;
  float w_first, w_second;
};
TFGPUAUG_HD ClaheTaps ClaheTapsOf(int pos, int tile, int tiles) {
  const float inv = 1.0f / float(tile);
  const float f = float(pos) * inv - 0.5f;
  const int t = static_cast<int>(floorf(f));
  ClaheTaps taps;
  taps.w_second = f - float(t);
  taps.w_first = 1.0f - taps.w_second;
  taps.first = t > 0 ? t : 0;
  taps.second = t + 1 < tiles - 1 ? t + 1 : tiles - 1;
  return taps;
}

// Value v through the blend of the four tables around the pixel (tables [tiles_y][tiles_x][256]).
TFGPUAUG_HD uint8_t ClaheValue(const uint8_t* luts, int tiles_x, const ClaheTaps& ty, const ClaheTaps& tx,
                               int v) {
  const uint8_t* top = luts + size_t(ty.first) * tiles_x * 256;
  const uint8_t* bottom = luts + size_t(ty.second) * tiles_x * 256;
  const float upper =
      float(top[tx.first * 256 + v]) * tx.w_first + float(top[tx.second * 256 + v]) * tx.w_second;
  const float lower =
      float(bottom[tx.first * 256 + v]) * tx.w_first + float(bottom[tx.second * 256 + v]) * tx.w_second;
  return RoundHalfEvenToUint8(upper * ty.w_first + lower * ty.w_second);
}

// The value CLAHE equalises at a pixel: L of L*a*b* for RGB(A), else the first channel.
TFGPUAUG_HD int ClaheInput(const uint8_t* px, int c) { return c >= 3 ? LabLightnessOpenCv(px) : px[0]; }

// Pixel (y, x) of the extended image (reflect-101 beyond the bottom and right edges).
TFGPUAUG_HD const uint8_t* ClaheSourcePixel(const uint8_t* src, int h, int w, int c, int y, int x) {
  return src + (size_t(Reflect101(y, h)) * w + Reflect101(x, w)) * c;
}

// All channels of output pixel (y, x) given the sample's tables.
TFGPUAUG_HD void ClahePixel(const uint8_t* luts, const ClaheGrid& g, const uint8_t* px, int c, int y, int x,
                            uint8_t* out) {
  const ClaheTaps ty = ClaheTapsOf(y, g.tile_h, g.tiles_y), tx = ClaheTapsOf(x, g.tile_w, g.tiles_x);
  for (int k = 0; k < c; ++k) out[k] = px[k];
  if (c >= 3) {
    uint8_t lab[3];
    LabFromRgbOpenCv(px, lab);
    RgbFromLabOpenCv(ClaheValue(luts, g.tiles_x, ty, tx, lab[0]), lab[1], lab[2], out);
  } else {
    out[0] = ClaheValue(luts, g.tiles_x, ty, tx, px[0]);
  }
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_CLAHE_H_
