#include "cc/kernels/augment/zoom_blur_avx2.h"

#include <cstring>

#include "cc/kernels/augment/zoom_blur.h"

namespace tfgpuaug {
namespace {

// Plane rows hold the image's columns, then zeros far enough for an eight-float load at a
// block's first source column + 1; sum and resampled rows are whole blocks of eight.
int PlaneStride(int w) { return (w + 9 + 7) / 8 * 8; }
int BlockStride(int w) { return (w + 7) / 8 * 8; }

// Zooms summed row by row together, so a row of sums stays in the L1 cache while each zoom of
// the group adds to it (zoom after zoom over the whole image streamed the sums from L3).
constexpr int kZoomGroup = 32;

// Floats a zoom of the group keeps: its two resampled source rows and its column taps.
size_t ZoomFloats(int w, int c) {
  const size_t bs = BlockStride(w);
  return 2 * size_t(c) * bs + 3 * bs + bs / 8;
}

}  // namespace

size_t ZoomBlurAvx2ScratchFloats(int h, int w, int c) {
  const size_t planes = size_t(c) * h * PlaneStride(w), sums = size_t(c) * h * BlockStride(w);
  return planes + sums + kZoomGroup * ZoomFloats(w, c);
}

#if TFGPUAUG_HAVE_AVX2_LOOPS
namespace {

using V = __m256;

// One zoom's columns in blocks of eight: the block's first source column, each lane's offset
// from it (0..7) and its two weights.
struct ColumnBlocks {
  int* base;
  int32_t* offset;
  float *w0, *w1;
};

// False where a block's source columns span more than eight (a factor below 1).
bool FillColumnBlocks(const ZoomAxis& across, int w, const ColumnBlocks& blocks) {
  const int stride = BlockStride(w);
  for (int x0 = 0; x0 < stride; x0 += 8) {
    const int base = ZoomTapAt(across, x0).first;
    blocks.base[x0 / 8] = base;
    for (int x = x0; x < x0 + 8; ++x) {
      const ZoomTap t = ZoomTapAt(across, x < w ? x : w - 1);
      if (t.first - base > 7) return false;
      blocks.offset[x] = t.first - base;
      blocks.w0[x] = t.w0;
      blocks.w1[x] = t.w1;
    }
  }
  return true;
}

// Source row r of each of the c planes (the first at `first`, the next `plane_step` floats on)
// resampled across into out (rows `bs` apart): column x0 w0 + column x0 + 1 w1 (the taps' second
// column, or one weighted 0 where the tap is clamped: either way the same float).
__attribute__((target("avx2"))) void ResampleRows(const float* first, size_t plane_step, int c, int bs,
                                                  const ColumnBlocks& b, float* out) {
  for (int x = 0; x < bs; x += 8) {
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.offset + x));
    const V w0 = _mm256_loadu_ps(b.w0 + x), w1 = _mm256_loadu_ps(b.w1 + x);
    const float* src = first + b.base[x / 8];
    for (int ch = 0; ch < c; ++ch, src += plane_step) {
      const V left = _mm256_permutevar8x32_ps(_mm256_loadu_ps(src), at);
      const V right = _mm256_permutevar8x32_ps(_mm256_loadu_ps(src + 1), at);
      _mm256_storeu_ps(out + size_t(ch) * bs + x,
                       _mm256_add_ps(_mm256_mul_ps(left, w0), _mm256_mul_ps(right, w1)));
    }
  }
}

// Eight RGB pixels (24 bytes; 28 readable) as three vectors of floats v / 255.
__attribute__((target("avx2"))) void LoadRgb8(const uint8_t* src, V* r, V* g, V* b) {
  // each 128-bit half: four pixels' bytes gathered as rrrr gggg bbbb, then the halves' words
  // paired: r0-7, g0-7, b0-7 as three 8-byte runs
  const __m256i split = _mm256_setr_epi8(0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, -1, -1, -1, -1, 0, 3, 6, 9, 1,
                                         4, 7, 10, 2, 5, 8, 11, -1, -1, -1, -1);
  const __m256i both = _mm256_set_m128i(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 12)),
                                        _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
  const __m256i runs = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(both, split),
                                                   _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  const __m128i rg = _mm256_castsi256_si128(runs), bx = _mm256_extracti128_si256(runs, 1);
  const V level = _mm256_set1_ps(255.f);
  *r = _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(rg)), level);
  *g = _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(rg, 8))), level);
  *b = _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bx)), level);
}

// Three vectors of int32 levels (0..255) stored as eight RGB pixels (24 bytes; 28 writable, the
// last four overwritten by the next pixels or left past the row's end in scratch).
__attribute__((target("avx2"))) void StoreRgb8(__m256i r, __m256i g, __m256i b, uint8_t* dst) {
  // bytes per 128-bit half: r r r r g g g g b b b b b b b b (four pixels each), then interleaved
  const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(r, g), _mm256_packs_epi32(b, b));
  const __m256i join = _mm256_setr_epi8(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1, 0, 4, 8, 1, 5,
                                        9, 2, 6, 10, 3, 7, 11, -1, -1, -1, -1);
  const __m256i pixels = _mm256_shuffle_epi8(bytes, join);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm256_castsi256_si128(pixels));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 12), _mm256_extracti128_si256(pixels, 1));
}

// One image row of c channels into c float planes (v / 255) padded with zeros to ps.
__attribute__((target("avx2"))) void PlaneRow(const uint8_t* src, int w, int c, const float* unit,
                                              size_t plane_step, int ps, float* first) {
  int x = 0;
  if (c == 3) {
    for (; x + 10 <= w; x += 8) {  // the loads read 28 bytes
      V r, g, b;
      LoadRgb8(src + 3 * x, &r, &g, &b);
      _mm256_storeu_ps(first + x, r);
      _mm256_storeu_ps(first + plane_step + x, g);
      _mm256_storeu_ps(first + 2 * plane_step + x, b);
    }
  }
  for (int ch = 0; ch < c; ++ch) {
    float* p = first + ch * plane_step;
    for (int i = x; i < w; ++i) p[i] = unit[src[size_t(i) * c + ch]];
    std::memset(p + w, 0, sizeof(float) * (ps - w));
  }
}

// sums += top w0 + bottom w1.
__attribute__((target("avx2"))) void AddRows(const float* top, const float* bottom, float w0, float w1,
                                             int stride, float* sums) {
  const V a = _mm256_set1_ps(w0), b = _mm256_set1_ps(w1);
  for (int x = 0; x < stride; x += 8) {
    const V v = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(top + x), a),
                              _mm256_mul_ps(_mm256_loadu_ps(bottom + x), b));
    _mm256_storeu_ps(sums + x, _mm256_add_ps(_mm256_loadu_ps(sums + x), v));
  }
}

// ZoomBlurByte on eight lanes: (unit + sum) / (zooms + 1), clipped, times 255, rounded to even.
__attribute__((target("avx2"))) __m256i Finish8(V unit, V sum, V count) {
  V t = _mm256_div_ps(_mm256_add_ps(unit, sum), count);
  t = _mm256_min_ps(_mm256_max_ps(t, _mm256_setzero_ps()), _mm256_set1_ps(1.f));
  t = _mm256_round_ps(_mm256_mul_ps(t, _mm256_set1_ps(255.f)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  return _mm256_cvtps_epi32(t);
}

// One output row from the planes (v / 255) and the zooms' sums (rows `plane_step` and
// `sum_step` floats apart per channel).
__attribute__((target("avx2"))) void FinishRow(const float* unit, size_t plane_step, const float* sums,
                                               size_t sum_step, int w, int c, int zooms, uint8_t* dst) {
  const V count = _mm256_set1_ps(static_cast<float>(zooms + 1));
  int x = 0;
  if (c == 3) {
    for (; x + 10 <= w; x += 8) {  // the stores write 28 bytes
      __m256i v[3];
      for (int ch = 0; ch < 3; ++ch) {
        v[ch] = Finish8(_mm256_loadu_ps(unit + ch * plane_step + x),
                        _mm256_loadu_ps(sums + ch * sum_step + x), count);
      }
      StoreRgb8(v[0], v[1], v[2], dst + 3 * x);
    }
  }
  for (; x < w; ++x) {
    for (int ch = 0; ch < c; ++ch) {
      dst[size_t(x) * c + ch] = ZoomBlurByte(unit[ch * plane_step + x], sums[ch * sum_step + x], zooms);
    }
  }
}

}  // namespace

bool ZoomBlurAvx2(const uint8_t* image, int h, int w, int c, double max_factor, double step, float* scratch,
                  uint8_t* out) {
  const int zooms = ZoomCount(max_factor, step);
  const int ps = PlaneStride(w), bs = BlockStride(w);
  float* planes = scratch;                    // [c, h, ps]: the image / 255
  float* sums = planes + size_t(c) * h * ps;  // [c, h, bs]
  float unit[256];
  for (int v = 0; v < 256; ++v) unit[v] = ZoomUnit(static_cast<uint8_t>(v));
  const size_t plane_step = size_t(h) * ps, sum_step = size_t(h) * bs;
  for (int y = 0; y < h; ++y) {
    PlaneRow(image + size_t(y) * w * c, w, c, unit, plane_step, ps, planes + size_t(y) * ps);
    for (int ch = 0; ch < c; ++ch) {
      // factor 1 is the identity: the image itself (0 where there are no zooms)
      float* s = sums + ch * sum_step + size_t(y) * bs;
      if (zooms > 0) {
        std::memcpy(s, planes + ch * plane_step + size_t(y) * ps, sizeof(float) * bs);
      } else {
        std::memset(s, 0, sizeof(float) * bs);
      }
    }
  }
  // each zoom of a group: its rows' taps, its column blocks, and two resampled source rows
  struct Zoom {
    ZoomAxis down;
    ColumnBlocks blocks;
    float* rows;  // [2, c, bs]
    int held[2];  // the source rows in its two slots
  };
  Zoom group[kZoomGroup];
  float* zoom_floats = sums + size_t(c) * h * bs;
  for (int k0 = 1; k0 < zooms; k0 += kZoomGroup) {
    const int count = zooms - k0 < kZoomGroup ? zooms - k0 : kZoomGroup;
    for (int g = 0; g < count; ++g) {
      const double factor = ZoomFactor(step, k0 + g);
      Zoom& z = group[g];
      z.rows = zoom_floats + g * ZoomFloats(w, c);
      float* taps = z.rows + 2 * size_t(c) * bs;  // w0, w1, offsets [bs] each, bases [bs / 8]
      z.blocks = ColumnBlocks{reinterpret_cast<int*>(taps + 3 * bs),
                              reinterpret_cast<int32_t*>(taps + 2 * bs), taps, taps + bs};
      z.down = ZoomAxisOf(h, factor);
      z.held[0] = z.held[1] = -1;
      if (!FillColumnBlocks(ZoomAxisOf(w, factor), w, z.blocks)) return false;
    }
    for (int y = 0; y < h; ++y) {
      for (int g = 0; g < count; ++g) {  // in the zooms' order: each sum adds them as numpy does
        Zoom& z = group[g];
        const ZoomTap ty = ZoomTapAt(z.down, y);
        // the output's two source rows, each resampled once while consecutive outputs share it
        const int want[2] = {ty.first, ty.second};
        int slot[2];
        for (int i = 0; i < 2; ++i) {
          if (z.held[0] == want[i] || z.held[1] == want[i]) {
            slot[i] = z.held[0] == want[i] ? 0 : 1;
            continue;
          }
          slot[i] = i == 0 ? (z.held[0] == want[1] ? 1 : 0) : 1 - slot[0];  // keep the other row if held
          z.held[slot[i]] = want[i];
          ResampleRows(planes + size_t(want[i]) * ps, plane_step, c, bs, z.blocks,
                       z.rows + size_t(slot[i]) * c * bs);
        }
        for (int ch = 0; ch < c; ++ch) {
          AddRows(z.rows + (size_t(slot[0]) * c + ch) * bs, z.rows + (size_t(slot[1]) * c + ch) * bs, ty.w0,
                  ty.w1, bs, sums + ch * sum_step + size_t(y) * bs);
        }
      }
    }
  }
  for (int y = 0; y < h; ++y) {
    FinishRow(planes + size_t(y) * ps, plane_step, sums + size_t(y) * bs, sum_step, w, c, zooms,
              out + size_t(y) * w * c);
  }
  return true;
}
#endif

}  // namespace tfgpuaug
