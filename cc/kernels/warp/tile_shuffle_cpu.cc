#include "cc/kernels/warp/tile_shuffle_cpu.h"

#include <cstring>

namespace tfgpuaug {
namespace {

std::string CheckEdges(const int32_t* starts, int parts, int size, const char* axis) {
  if (parts < 1 || parts > kMaxTileShuffleParts) return std::string(axis) + ": 1 to 64 parts";
  if (starts[0] != 0 || starts[parts] != size)
    return std::string(axis) + " edges must run from 0 to the size";
  for (int k = 0; k < parts; ++k)
    if (starts[k + 1] < starts[k]) return std::string(axis) + " edges must not decrease";
  return "";
}

}  // namespace

std::string CheckTilePlan(const TilePlan& p, int h, int w) {
  std::string bad = CheckEdges(p.row_starts, p.rows, h, "row");
  if (bad.empty()) bad = CheckEdges(p.col_starts, p.cols, w, "column");
  if (!bad.empty()) return bad;
  const int tiles = p.rows * p.cols;
  bool seen[kMaxTileShuffleParts * kMaxTileShuffleParts] = {};
  for (int t = 0; t < tiles; ++t) {
    const int s = p.source[t];
    if (s < 0 || s >= tiles || seen[s]) return "the sources must be a permutation of the tiles";
    seen[s] = true;
    const int i = t / p.cols, j = t % p.cols, si = s / p.cols, sj = s % p.cols;
    if (p.row_starts[i + 1] - p.row_starts[i] != p.row_starts[si + 1] - p.row_starts[si] ||
        p.col_starts[j + 1] - p.col_starts[j] != p.col_starts[sj + 1] - p.col_starts[sj]) {
      return "a tile must take the pixels of a tile of its own shape";
    }
  }
  return "";
}

void TileShuffleCpu(const uint8_t* src, int h, int w, int c, const TilePlan& p, uint8_t* dst) {
  (void)h;
  const size_t row_bytes = size_t(w) * c;
  for (int i = 0; i < p.rows; ++i) {
    for (int j = 0; j < p.cols; ++j) {
      const int s = p.source[i * p.cols + j], si = s / p.cols, sj = s % p.cols;
      const size_t bytes = size_t(p.col_starts[j + 1] - p.col_starts[j]) * c;
      for (int y = p.row_starts[i]; y < p.row_starts[i + 1]; ++y) {
        const int sy = p.row_starts[si] + (y - p.row_starts[i]);
        std::memcpy(dst + y * row_bytes + size_t(p.col_starts[j]) * c,
                    src + sy * row_bytes + size_t(p.col_starts[sj]) * c, bytes);
      }
    }
  }
}

}  // namespace tfgpuaug
