// CPU driver for one sample of remap (remap.h) and the annotation maps of a remap: boxes
// and points carried through a per-pixel map.
#ifndef TFGPUAUG_CC_KERNELS_WARP_REMAP_CPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_REMAP_CPU_H_

#include <cstdint>

#include "cc/kernels/warp/remap.h"

namespace tfgpuaug {

// One sample: image [in_h, in_w, c], map [out_h, out_w, 2] (x, y) -> out [out_h, out_w, c].
void RemapCpu(const uint8_t* image, const RemapParams& p, const float* map, uint8_t* out);

// One sample through the affine map of `matrix` (2x3, AffineMapEntry): RemapCpu with the map
// computed a few dozen pixels at a time instead of read from memory.
void RemapAffineCpu(const uint8_t* image, const RemapParams& p, const float* matrix, uint8_t* out);

// One sample through the radial map of coefficients k (k1, k2; RadialMapEntry), output the
// input's size: RemapCpu with the map computed a few dozen pixels at a time.
void RemapRadialCpu(const uint8_t* image, const RemapParams& p, const float* k, uint8_t* out);

// One sample with each channel through its own radial map (k [channels, 2]; ChromaticAberration
// bends red and blue apart): a channel with k = (0, 0), the identity map, is copied; the others
// are taken out as a plane, remapped by RemapRadialCpu and put back. planes: scratch of
// 2 in_h in_w bytes.
void RemapRadialChannelsCpu(const uint8_t* image, const RemapParams& p, const float* k, uint8_t* planes,
                            uint8_t* out);

// One sample of the separable resampling (remap.h): image [in_h, in_w, c], rows [out_h] and
// cols [out_w] taps -> out [out_h, out_w, c].
void SeparableResampleCpu(const uint8_t* image, int in_h, int in_w, int c, SeparableTaps rows, int out_h,
                          SeparableTaps cols, int out_w, uint8_t fill, uint8_t* out);

// Boxes through one sample's map [h, w, 2] (Albumentations' rule, with continuous pixel
// coordinates): a box xyxy covers the input pixels whose centres lie inside it; its new box is
// the extent of the output pixels whose nearest input pixel (rint of the map) it covers,
// [min x, max x + 1) by [min y, max y + 1). Returns false (box left as it was) when none does.
bool RemapBoxCpu(const float* map, int h, int w, int in_h, int in_w, const float* box, float* out);

// A point xy (continuous coordinates) through one sample's map: the output position whose
// map value is the point, from the output pixel whose map value is nearest to it, refined by
// Newton steps on the bilinear interpolation of the map. Returns false when no output pixel
// maps within `reach` pixels of it (the point left the image).
bool RemapPointCpu(const float* map, int h, int w, const float* point, float reach, float* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_REMAP_CPU_H_
