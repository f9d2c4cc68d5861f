#include "cc/kernels/decode/jpeg_restart.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace tfgpuaug {
namespace {

constexpr uint8_t kSoi = 0xD8, kEoi = 0xD9, kSos = 0xDA, kDri = 0xDD, kDqt = 0xDB, kDht = 0xC4;
constexpr uint8_t kRst0 = 0xD0, kRst7 = 0xD7, kApp0 = 0xE0, kApp14 = 0xEE;

int Be16(const uint8_t* p) { return (int(p[0]) << 8) | p[1]; }

// SOF markers of frames the restart crop does not serve: progressive, lossless, hierarchical
// and arithmetic-coded ones (and DAC, arithmetic coding's conditioning table).
bool IsOtherFrame(uint8_t m) {
  return m == 0xC2 || m == 0xC3 || (m >= 0xC5 && m <= 0xC7) || (m >= 0xC9 && m <= 0xCB) ||
         (m >= 0xCD && m <= 0xCF) || m == 0xCC;
}

// Reads the segments up to and including SOS; returns false on anything it does not serve.
bool ParseHeader(const uint8_t* data, size_t size, RestartLayout* layout, size_t* scan_start) {
  if (size < 4 || data[0] != 0xFF || data[1] != kSoi) return false;
  size_t pos = 2;
  int components = 0, h_max = 1, v_max = 1, h_min = 4, v_min = 4;
  bool have_frame = false;
  while (true) {
    if (pos >= size || data[pos] != 0xFF) return false;
    while (pos < size && data[pos] == 0xFF) ++pos;  // fill bytes before a marker
    if (pos + 3 > size) return false;
    const uint8_t marker = data[pos];
    const size_t begin = pos - 1;
    const size_t length = static_cast<size_t>(Be16(data + pos + 1));
    const size_t body = pos + 3, end = pos + 1 + length;
    if (length < 2 || end > size) return false;
    if (marker == kSoi || marker == kEoi || marker == 0x01 || (marker >= kRst0 && marker <= kRst7))
      return false;
    if (IsOtherFrame(marker)) return false;
    if (marker == 0xC0 || marker == 0xC1) {
      if (have_frame || length < 8) return false;
      components = data[body + 5];
      if (data[body] != 8 || components < 1 || components > 4 || length != size_t(8 + 3 * components))
        return false;
      layout->height = Be16(data + body + 1);
      layout->width = Be16(data + body + 3);
      if (layout->height == 0 || layout->width == 0) return false;  // 0: the height comes in a DNL
      for (int c = 0; c < components; ++c) {
        const int h = data[body + 7 + 3 * c] >> 4, v = data[body + 7 + 3 * c] & 15;
        if (h < 1 || h > 4 || v < 1 || v > 4) return false;
        h_max = std::max(h_max, h);
        v_max = std::max(v_max, v);
        h_min = std::min(h_min, h);
        v_min = std::min(v_min, v);
      }
      layout->sof_offset = body + 1;
      have_frame = true;
      layout->header_segments.emplace_back(begin, end);
    } else if (marker == kDri) {
      if (length != 4) return false;
      layout->interval = Be16(data + body);
      layout->header_segments.emplace_back(begin, end);
    } else if (marker == kSos) {
      if (!have_frame || length < 3) return false;
      const int in_scan = data[body];
      if (in_scan != components || length != size_t(6 + 2 * in_scan)) return false;
      const uint8_t* tail = data + body + 1 + 2 * in_scan;  // Ss, Se, Ah/Al
      if (tail[0] != 0 || tail[1] != 63 || tail[2] != 0) return false;
      layout->header_segments.emplace_back(begin, end);
      *scan_start = end;
      break;
    } else if (marker == kDqt || marker == kDht || marker == kApp0 || marker == kApp14) {
      // Tables, and the markers that say how to read the colour (JFIF, Adobe's transform).
      layout->header_segments.emplace_back(begin, end);
    }  // other APPn, COM and the rest change no pixel: the smaller stream leaves them out
    pos = end;
  }
  if (layout->interval <= 0) return false;
  // A scan of one component has one block per MCU whatever its sampling factors.
  layout->mcu_width = components == 1 ? 8 : 8 * h_max;
  layout->mcu_height = components == 1 ? 8 : 8 * v_max;
  layout->subsampled_x = components > 1 && h_min < h_max;
  layout->subsampled_y = components > 1 && v_min < v_max;
  layout->mcus_per_row = (layout->width + layout->mcu_width - 1) / layout->mcu_width;
  layout->mcu_rows = (layout->height + layout->mcu_height - 1) / layout->mcu_height;
  return true;
}

// Finds every interval of the scan from `pos` to EOI.
bool ParseIntervals(const uint8_t* data, size_t size, size_t pos, RestartLayout* layout) {
  const int64_t mcus = int64_t{layout->mcus_per_row} * layout->mcu_rows;
  const int64_t expected = (mcus + layout->interval - 1) / layout->interval;
  // Every interval but the last ends in a two-byte marker: bound the count before reserving.
  if (expected > int64_t((size - pos) / 2) + 1) return false;
  layout->starts.reserve(size_t(expected));
  layout->ends.reserve(size_t(expected));
  layout->starts.push_back(pos);
  while (true) {
    const void* hit = pos < size ? std::memchr(data + pos, 0xFF, size - pos) : nullptr;
    if (hit == nullptr) return false;  // no EOI
    const size_t ff = static_cast<size_t>(static_cast<const uint8_t*>(hit) - data);
    size_t next = ff + 1;
    while (next < size && data[next] == 0xFF) ++next;
    if (next >= size) return false;
    const uint8_t code = data[next];
    if (code == 0) {  // a stuffed 0xFF data byte
      pos = next + 1;
      continue;
    }
    if (code >= kRst0 && code <= kRst7) {
      const size_t index = layout->starts.size() - 1;
      if (code != kRst0 + index % 8 || int64_t(index) + 1 >= expected) return false;
      layout->ends.push_back(ff);
      layout->starts.push_back(next + 1);
      pos = next + 1;
      continue;
    }
    if (code != kEoi) return false;  // DNL, another scan, a table: leave the file to libjpeg
    layout->ends.push_back(ff);
    return int64_t(layout->starts.size()) == expected;
  }
}

int CeilDiv(int a, int b) { return (a + b - 1) / b; }

}  // namespace

bool ParseRestartLayout(const uint8_t* data, size_t size, RestartLayout* layout) {
  *layout = RestartLayout();
  size_t scan_start = 0;
  return ParseHeader(data, size, layout, &scan_start) && ParseIntervals(data, size, scan_start, layout);
}

RestartCrop PlanRestartCrop(const RestartLayout& layout, int y, int x, int height, int width) {
  const int cols = layout.mcus_per_row, rows = layout.mcu_rows, n = layout.interval;
  RestartCrop crop;
  // One MCU of margin on a subsampled axis: fancy upsampling reads one chroma sample past
  // each side. Without subsampling every pixel comes from its own block alone.
  const int margin_x = layout.subsampled_x ? 1 : 0, margin_y = layout.subsampled_y ? 1 : 0;
  crop.col0 = std::max(0, x / layout.mcu_width - margin_x);
  crop.col1 = std::min(cols, CeilDiv(x + width, layout.mcu_width) + margin_x);
  crop.row0 = std::max(0, y / layout.mcu_height - margin_y);
  crop.row1 = std::min(rows, CeilDiv(y + height, layout.mcu_height) + margin_y);
  if (cols % n == 0) {  // every row starts an interval: columns can be cut at interval bounds
    crop.col0 = crop.col0 / n * n;
    crop.col1 = std::min(cols, CeilDiv(crop.col1, n) * n);
  } else {
    crop.col0 = 0;
    crop.col1 = cols;
  }
  const int row_step = n / std::gcd(n, cols);  // rows at which an interval begins
  crop.row0 = crop.row0 / row_step * row_step;
  crop.row1 = std::min(rows, CeilDiv(crop.row1, row_step) * row_step);
  crop.x_offset = crop.col0 * layout.mcu_width;
  crop.y_offset = crop.row0 * layout.mcu_height;
  crop.width = crop.col1 == cols ? layout.width - crop.x_offset : (crop.col1 - crop.col0) * layout.mcu_width;
  crop.height =
      crop.row1 == rows ? layout.height - crop.y_offset : (crop.row1 - crop.row0) * layout.mcu_height;
  // Rows below a window are never entropy-decoded anyway: a crop that keeps every column
  // from the first row on saves nothing.
  crop.whole = crop.col0 == 0 && crop.col1 == cols && crop.row0 == 0;
  return crop;
}

void BuildRestartCropStream(const uint8_t* data, const RestartLayout& layout, const RestartCrop& crop,
                            std::vector<uint8_t>* out) {
  out->clear();
  out->reserve(layout.ends.back() + 2);
  out->push_back(0xFF);
  out->push_back(kSoi);
  for (const auto& segment : layout.header_segments) {
    const size_t at = out->size();
    out->insert(out->end(), data + segment.first, data + segment.second);
    if (layout.sof_offset >= segment.first && layout.sof_offset < segment.second) {
      uint8_t* sof = out->data() + at + (layout.sof_offset - segment.first);
      sof[0] = uint8_t(crop.height >> 8);
      sof[1] = uint8_t(crop.height & 0xFF);
      sof[2] = uint8_t(crop.width >> 8);
      sof[3] = uint8_t(crop.width & 0xFF);
    }
  }
  const int64_t cols = layout.mcus_per_row, n = layout.interval;
  const int64_t count = int64_t(layout.starts.size());
  int64_t written = 0;
  auto append = [&](int64_t first, int64_t last) {  // intervals [first, last)
    for (int64_t i = first; i < last && i < count; ++i) {
      if (written > 0) {
        out->push_back(0xFF);
        out->push_back(uint8_t(kRst0 + (written - 1) % 8));
      }
      out->insert(out->end(), data + layout.starts[size_t(i)], data + layout.ends[size_t(i)]);
      ++written;
    }
  };
  if (crop.col0 == 0 && crop.col1 == cols) {
    append(crop.row0 * cols / n, (crop.row1 * cols + n - 1) / n);
  } else {
    for (int64_t r = crop.row0; r < crop.row1; ++r)
      append((r * cols + crop.col0) / n, (r * cols + crop.col1) / n);
  }
  out->push_back(0xFF);
  out->push_back(kEoi);
}

bool CutRestartCrop(const uint8_t* data, size_t size, int denom, Window* window,
                    std::vector<uint8_t>* smaller, RestartCrop* crop_out) {
  const char* enabled = std::getenv("TFGPUAUG_JPEG_RESTART_CROP");
  if (enabled != nullptr && std::strcmp(enabled, "0") == 0) return false;
  RestartLayout layout;
  if (!ParseRestartLayout(data, size, &layout)) return false;
  // The window in full-size pixels (a scaled pixel covers `denom` of them; the last may be cut).
  const int y = window->y * denom, x = window->x * denom;
  const int height = std::min(layout.height - y, window->height * denom);
  const int width = std::min(layout.width - x, window->width * denom);
  if (height <= 0 || width <= 0) return false;
  const RestartCrop crop = PlanRestartCrop(layout, y, x, height, width);
  if (crop.whole) return false;
  BuildRestartCropStream(data, layout, crop, smaller);
  // MCUs are 8 or 16 pixels and denom at most 8, so the offsets are whole scaled pixels.
  window->x -= crop.x_offset / denom;
  window->y -= crop.y_offset / denom;
  if (crop_out != nullptr) *crop_out = crop;
  return true;
}

}  // namespace tfgpuaug
