// Restart intervals of a sequential JPEG: where each one lies in the compressed bytes, and a
// smaller, valid JPEG made of only the intervals that cover a window. With restart markers
// (DRI), every interval starts with the DC predictors reset, so a band of whole intervals
// decodes alone to the same coefficients, and libjpeg then makes the same pixels everywhere
// but within one MCU of the band's cut edges where chroma is subsampled (upsampling reads one
// neighbour there), which the margin below keeps outside the window. Pure byte parsing: no
// libjpeg here.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_JPEG_RESTART_H_
#define TFGPUAUG_CC_KERNELS_DECODE_JPEG_RESTART_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cc/kernels/decode/image_decode.h"

namespace tfgpuaug {

// One single-scan sequential (baseline or extended Huffman) JPEG with restart markers.
struct RestartLayout {
  int width = 0, height = 0;          // image size in pixels (SOF)
  int mcu_width = 0, mcu_height = 0;  // in pixels: 8 * max sampling factor, or 8 for one component
  int mcus_per_row = 0, mcu_rows = 0;
  int interval = 0;  // MCUs per restart interval (DRI)
  // Whether some component is subsampled across / down: only then does upsampling read a
  // neighbouring sample, and a crop need a margin on that axis (4:4:4 and gray need none).
  bool subsampled_x = false, subsampled_y = false;
  size_t sof_offset = 0;  // of the SOF segment's height field
  // Header segments the smaller stream keeps (tables, DRI, SOF, JFIF/Adobe, SOS), in order,
  // as [begin, end) byte ranges; sos_end is where the entropy-coded data begins.
  std::vector<std::pair<size_t, size_t>> header_segments;
  // Entropy-coded bytes of interval i: [starts[i], ends[i]), markers excluded.
  std::vector<size_t> starts, ends;
};

// Fills `layout` and returns true when the file is one the restart crop can serve: SOI,
// SOF0/SOF1 with 8-bit samples and a known height, a DRI before the one interleaved scan
// (every component, Ss=0 Se=63), restart markers numbered in order, as many intervals as the
// MCU count asks, and EOI after them. Anything else (progressive, several scans, arithmetic
// coding, a marker out of place, damage) returns false: the caller decodes the whole file
// as before, which reports the damage.
bool ParseRestartLayout(const uint8_t* data, size_t size, RestartLayout* layout);

// The rectangle of MCUs a restart crop keeps, in MCU units ([col0, col1) x [row0, row1)).
struct RestartCrop {
  int col0 = 0, col1 = 0, row0 = 0, row1 = 0;
  int x_offset = 0, y_offset = 0;  // pixels: the smaller image's top-left corner in the original
  int width = 0, height = 0;       // pixels: the smaller image's size
  bool whole = true;               // the crop is the whole image: nothing to gain
};

// The MCUs covering pixels [x, x + width) x [y, y + height) of the image plus one MCU on every
// side that is not an image edge (on the subsampled axes), widened to whole restart intervals:
// columns are cut only when each MCU row is a whole number of intervals, rows only where an
// interval begins.
RestartCrop PlanRestartCrop(const RestartLayout& layout, int y, int x, int height, int width);

// Writes the smaller JPEG for `crop` to `out` (never more bytes than the original): the kept header
// segments with the SOF's size changed, the crop's intervals with markers renumbered from 0,
// and EOI.
void BuildRestartCropStream(const uint8_t* data, const RestartLayout& layout, const RestartCrop& crop,
                            std::vector<uint8_t>* out);

// For a JPEG with restart markers: the smaller JPEG of the intervals that cover `window` (in
// pixels at 1/`denom` scale) in `smaller`, `window` moved into its coordinates, and the crop
// in `crop` when given. False, with nothing changed, when the file is not one the restart crop
// serves, the crop would save nothing, or TFGPUAUG_JPEG_RESTART_CROP=0 (read per call, so a
// benchmark can switch it between runs).
bool CutRestartCrop(const uint8_t* data, size_t size, int denom, Window* window,
                    std::vector<uint8_t>* smaller, RestartCrop* crop);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_JPEG_RESTART_H_
