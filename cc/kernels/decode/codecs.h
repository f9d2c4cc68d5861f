// Per-format decoders behind image_decode.h. Windows are in stored (not re-oriented)
// coordinates at the requested scale.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_CODECS_H_
#define TFGPUAUG_CC_KERNELS_DECODE_CODECS_H_

#include "cc/kernels/decode/image_decode.h"

namespace tfgpuaug {

// JPEG through the libjpeg the request names (see JpegBuild; jpeg_codec_select.cc).
Status ProbeJpeg(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodeJpegWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                        uint8_t* out);
// The window's rows as libjpeg writes them (see ExecuteDecodeStrided), in `storage`.
Status DecodeJpegWindowStrided(const uint8_t* data, size_t size, const DecodeRequest& request,
                               const Window& window, std::unique_ptr<uint8_t[]>* storage, StridedPixels* out);

// Entropy-decodes the whole scan, no pixels made: an error where a decode would fail on
// corrupt or missing data (see CheckJpegEntropy in image_decode.h).
Status CheckJpegEntropyData(const uint8_t* data, size_t size);

// Whether `build` can decode on this machine (kAuto and kLinked always can).
bool JpegBuildAvailable(JpegBuild build);

// One libjpeg's decoder: jpeg_codec.cc compiled against it.
struct JpegCodec {
  Status (*probe)(const uint8_t* data, size_t size, ImageInfo* info);
  Status (*decode_window)(const uint8_t* data, size_t size, const DecodeRequest& request,
                          const Window& window, uint8_t* out);
  Status (*decode_window_strided)(const uint8_t* data, size_t size, const DecodeRequest& request,
                                  const Window& window, std::unique_ptr<uint8_t[]>* storage,
                                  StridedPixels* out);
  Status (*check_entropy)(const uint8_t* data, size_t size);
};
extern const JpegCodec kLinkedJpegCodec;
#if TFGPUAUG_JPEG_X86_64_V3
extern const JpegCodec kX86_64V3JpegCodec;  // jpeg_codec_x86_64_v3.cc
#endif

Status ProbePng(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodePngWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out);

// 16-bit output (uint16): the formats that can hold more than 8 bits per sample.
Status DecodePngWindow16(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                         uint16_t* out);

Status ProbeWebp(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodeWebpWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                        uint8_t* out);

Status ProbeGif(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodeGifWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out);

Status DecodePnmWindow16(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                         uint16_t* out);
Status DecodeTiffWindow16(const uint8_t* data, size_t size, const DecodeRequest& request,
                          const Window& window, uint16_t* out);
Status DecodeJpeg2000Window16(const uint8_t* data, size_t size, const DecodeRequest& request,
                              const Window& window, uint16_t* out);

// Every frame of an animation, composited on the screen, [frames, h, w, channels] in `out`.
Status CountGifFrames(const uint8_t* data, size_t size, int* frames);
Status DecodeGifFrames(const uint8_t* data, size_t size, int channels, uint8_t* out);
Status CountWebpFrames(const uint8_t* data, size_t size, int* frames);
Status DecodeWebpFrames(const uint8_t* data, size_t size, int channels, uint8_t* out);

// Formats decoded from a full-size region (window_pixels.h: SourceRegion, WriteWindow).
Status ProbeBmp(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodeBmpWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out);

Status ProbePnm(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodePnmWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                       uint8_t* out);

Status ProbeTiff(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodeTiffWindow(const uint8_t* data, size_t size, const DecodeRequest& request, const Window& window,
                        uint8_t* out);

Status ProbeJpeg2000(const uint8_t* data, size_t size, ImageInfo* info);
Status DecodeJpeg2000Window(const uint8_t* data, size_t size, const DecodeRequest& request,
                            const Window& window, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_CODECS_H_
