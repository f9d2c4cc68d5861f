#include "cc/kernels/masks/coco_masks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace tfgpuaug {
namespace {

uint32_t ReadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Column-major runs (zeros first) painted into a row-major mask.
Status PaintRuns(const std::vector<uint32_t>& counts, int height, int width, uint8_t value, uint8_t* mask) {
  const uint64_t total = uint64_t(height) * width;
  uint64_t at = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > total - at) {
      return Status::Invalid("COCO RLE: runs add up to more than the " + std::to_string(height) + "x" +
                             std::to_string(width) + " image");
    }
    if (i % 2 == 1) {
      for (uint64_t p = at; p < at + counts[i]; ++p) mask[(p % height) * width + p / height] = value;
    }
    at += counts[i];
  }
  if (at != total) {
    return Status::Invalid("COCO RLE: runs add up to " + std::to_string(at) + " pixels, the image has " +
                           std::to_string(total));
  }
  return Status::Ok();
}

struct Point {
  double x, y;
};

// Even-odd fill at pixel centres of one polygon into `inside` (h x w, 0/1, OR-ed).
void FillPolygon(const std::vector<Point>& poly, int height, int width, std::vector<uint8_t>* inside) {
  std::vector<double> xs;
  for (int y = 0; y < height; ++y) {
    const double yc = y + 0.5;
    xs.clear();
    for (size_t i = 0; i < poly.size(); ++i) {
      const Point& a = poly[i];
      const Point& b = poly[(i + 1) % poly.size()];
      if ((a.y <= yc && yc < b.y) || (b.y <= yc && yc < a.y))
        xs.push_back(a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y));
    }
    std::sort(xs.begin(), xs.end());
    for (size_t k = 0; k + 1 < xs.size(); k += 2) {
      // Pixels whose centre x + 0.5 lies in [xs[k], xs[k + 1]).
      const int x0 = std::max(0, static_cast<int>(std::ceil(xs[k] - 0.5)));
      const int x1 = std::min(width, static_cast<int>(std::ceil(xs[k + 1] - 0.5)));
      for (int x = x0; x < x1; ++x) (*inside)[size_t(y) * width + x] = 1;
    }
  }
}

}  // namespace

Status DecodeRleString(const char* text, size_t size, std::vector<uint32_t>* counts) {
  counts->clear();
  size_t p = 0;
  while (p < size && text[p] != '\0') {
    int64_t x = 0;
    int k = 0;
    bool more = true;
    while (more) {
      if (p >= size || text[p] == '\0')
        return Status::Invalid("COCO RLE: the counts string ends inside a count");
      const int c = static_cast<unsigned char>(text[p]) - 48;
      if (c < 0 || c > 63) return Status::Invalid("COCO RLE: invalid character in the counts string");
      if (k >= 12) return Status::Invalid("COCO RLE: a count in the string is too long");
      x |= int64_t(c & 0x1f) << (5 * k);
      more = (c & 0x20) != 0;
      ++p;
      ++k;
      if (!more && (c & 0x10)) x |= -(int64_t{1} << (5 * k));  // negative: sign-extend
    }
    if (counts->size() > 2) x += (*counts)[counts->size() - 2];
    if (x < 0 || x > UINT32_MAX) return Status::Invalid("COCO RLE: a run length out of range");
    counts->push_back(static_cast<uint32_t>(x));
  }
  return Status::Ok();
}

Status PaintSegmentation(SegmentationKind kind, const uint8_t* data, size_t size, int height, int width,
                         uint8_t value, uint8_t* mask) {
  if (height <= 0 || width <= 0) return Status::Invalid("COCO mask: empty image size");
  if (kind == SegmentationKind::kRleString) {
    std::vector<uint32_t> counts;
    TFGPUAUG_RETURN_IF_ERROR(DecodeRleString(reinterpret_cast<const char*>(data), size, &counts));
    return PaintRuns(counts, height, width, value, mask);
  }
  if (kind == SegmentationKind::kRleCounts) {
    if (size % 4 != 0) return Status::Invalid("COCO RLE: counts are not whole uint32 values");
    std::vector<uint32_t> counts(size / 4);
    for (size_t i = 0; i < counts.size(); ++i) counts[i] = ReadU32(data + 4 * i);
    return PaintRuns(counts, height, width, value, mask);
  }
  if (kind != SegmentationKind::kPolygons) return Status::Invalid("COCO mask: unknown segmentation kind");
  std::vector<uint8_t> inside(size_t(height) * width, 0);
  std::vector<Point> poly;
  size_t p = 0;
  while (p < size) {
    if (p + 4 > size) return Status::Invalid("COCO polygon: truncated part header");
    const uint32_t n = ReadU32(data + p);
    p += 4;
    if (n % 2 != 0 || size - p < size_t(n) * 4) return Status::Invalid("COCO polygon: truncated coordinates");
    poly.resize(n / 2);
    for (uint32_t i = 0; i < n / 2; ++i) {
      float x, y;
      std::memcpy(&x, data + p + 8 * i, 4);
      std::memcpy(&y, data + p + 8 * i + 4, 4);
      if (!std::isfinite(x) || !std::isfinite(y))
        return Status::Invalid("COCO polygon: a coordinate is not finite");
      poly[i] = Point{x, y};
    }
    p += size_t(n) * 4;
    if (poly.size() >= 3) FillPolygon(poly, height, width, &inside);
  }
  for (size_t i = 0; i < inside.size(); ++i) {
    if (inside[i]) mask[i] = value;
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
