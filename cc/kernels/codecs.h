// Per-format decoders behind image_decode.h. Windows are in stored (not re-oriented)
// coordinates at the requested scale.
#ifndef TFGPUAUG_CC_KERNELS_CODECS_H_
#define TFGPUAUG_CC_KERNELS_CODECS_H_

#include "cc/kernels/image_decode.h"

namespace tfgpuaug {

Status ProbeJpeg(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodeJpegWindow(const uint8_t* data, size_t size, const DecodeRequest& request,
                        const Window& window, uint8_t* out);
// The window's rows as libjpeg writes them (see ExecuteDecodeStrided), in `storage`.
Status DecodeJpegWindowStrided(const uint8_t* data, size_t size, const DecodeRequest& request,
                               const Window& window, std::unique_ptr<uint8_t[]>* storage,
                               StridedPixels* out);

Status ProbePng(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodePngWindow(const uint8_t* data, size_t size, const DecodeRequest& request,
                       const Window& window, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_CODECS_H_
