// JPEG compression artefacts on demand: encode an image at a quality with libjpeg (PIL's
// defaults: 4:2:0 chroma, accurate integer DCT, standard Huffman tables) and decode it back.
#ifndef TFGPUAUG_CC_KERNELS_ENCODE_JPEG_QUALITY_H_
#define TFGPUAUG_CC_KERNELS_ENCODE_JPEG_QUALITY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Encodes `height` x `width` pixels of `channels` (1 gray, 3 RGB) at `quality` (1..100).
Status EncodeJpeg(const uint8_t* pixels, int height, int width, int channels, int quality,
                  std::vector<uint8_t>* out);

// `image` (1, 3 or 4 channels; alpha kept as is) replaced by its JPEG round trip at `quality`.
Status JpegRoundTrip(uint8_t* image, int height, int width, int channels, int quality);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_ENCODE_JPEG_QUALITY_H_
