// Connected components of a label mask: the pixels of one non-zero value joined through 8 (or
// 4) neighbours, as Albumentations' MaskDropout finds its objects (OpenCV's
// connectedComponents on each value's binary mask). CPU only; no TensorFlow.
#ifndef TFGPUAUG_CC_KERNELS_MASKS_CONNECTED_COMPONENTS_H_
#define TFGPUAUG_CC_KERNELS_MASKS_CONNECTED_COMPONENTS_H_

#include <cstdint>
#include <vector>

namespace tfgpuaug {

// Writes labels[y * w + x]: 0 where mask is 0, else 1 + the index of the pixel's component,
// the components numbered in the raster order of their first pixels. `parent` is scratch
// (resized to h * w). Returns the number of components.
int32_t LabelComponents(const uint8_t* mask, int h, int w, bool eight_connected, int32_t* labels,
                        std::vector<int32_t>* parent);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_MASKS_CONNECTED_COMPONENTS_H_
