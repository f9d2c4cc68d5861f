// COCO segmentations as pixel masks, framework-free: polygons (rasterized at pixel centres,
// even-odd, the parts of an annotation united) and run-length encodings (COCO's column-major
// counts, as a list or in its compressed string form).
#ifndef TFGPUAUG_CC_KERNELS_MASKS_COCO_MASKS_H_
#define TFGPUAUG_CC_KERNELS_MASKS_COCO_MASKS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// How a segmentation's bytes are laid out (the reader packs them so):
//   kPolygons:  for each part, a uint32 coordinate count 2k then k (x, y) float32 pairs;
//   kRleCounts: uint32 run lengths, zeros first;
//   kRleString: COCO's compressed counts string.
enum class SegmentationKind { kPolygons = 0, kRleCounts = 1, kRleString = 2 };

// Decodes COCO's compressed counts string (6-bit characters from '0', 5 data bits and a
// continuation bit, sign-extended; from the fourth count on, a delta from the count two back).
Status DecodeRleString(const char* text, size_t size, std::vector<uint32_t>* counts);

// Writes `value` into the h x w row-major `mask` wherever the segmentation covers a pixel
// (pixels it does not cover are left as they are).
Status PaintSegmentation(SegmentationKind kind, const uint8_t* data, size_t size, int height, int width,
                         uint8_t value, uint8_t* mask);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_MASKS_COCO_MASKS_H_
