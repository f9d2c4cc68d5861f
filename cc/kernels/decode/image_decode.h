// Framework-free image decoding (JPEG, PNG, WebP, GIF, BMP, PNM, TIFF, JPEG 2000): header probing, planning
// (output size, limits) and decoding into a caller-owned buffer, optionally a window at a reduced scale.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_H_
#define TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

enum class ImageFormat {
  kUnknown = 0,
  kJpeg = 1,
  kPng = 2,
  kWebp = 3,
  kGif = 4,
  kBmp = 5,
  kPnm = 6,
  kTiff = 7,
  kJpeg2000 = 8,
};

// Header facts of an encoded image, read without decoding pixels.
struct ImageInfo {
  ImageFormat format = ImageFormat::kUnknown;
  int height = 0;  // stored (not re-oriented) size
  int width = 0;
  int channels = 0;     // native: JPEG 1/3/4 (CMYK), PNG/TIFF/JPEG 2000 1-4, WebP/GIF 3/4, BMP 1/3/4, PNM 1/3
  int orientation = 1;  // EXIF orientation 1..8 (1 when absent)
  bool progressive = false;
};

// A rectangle in output pixel coordinates.
struct Window {
  int y = 0, x = 0, height = 0, width = 0;
};

enum class DctMethod { kIntegerAccurate = 0, kIntegerFast = 1, kFloat = 2 };

// Which libjpeg decodes a JPEG. Both are libjpeg-turbo 2.1.5 and give the same pixels;
// kX86_64V3 is the copy built for x86-64-v3 CPUs (build_tools/libjpeg_turbo.py), linked
// in when the build made it. kAuto takes it on CPUs that have x86-64-v3, else the system
// libjpeg; tests name a build to compare the two.
enum class JpegBuild { kAuto = 0, kLinked = 1, kX86_64V3 = 2 };

struct DecodeRequest {
  int channels = 3;                                    // 1, 3 or 4
  int dct_denom = 1;                                   // 1, 2, 4 or 8: decode at 1/dct_denom size
  DctMethod dct_method = DctMethod::kIntegerAccurate;  // accurate matches PIL
  bool apply_exif_orientation = false;
  int64_t max_pixels = int64_t{1} << 27;  // refuse larger headers before allocating
  bool has_window = false;
  Window window;  // in scaled, oriented coordinates
  JpegBuild jpeg_build = JpegBuild::kAuto;
};

// What a decode will produce; computed from the header alone.
struct DecodePlan {
  ImageInfo info;
  int full_height = 0;  // oriented image size at the requested scale
  int full_width = 0;
  int out_height = 0;  // size of the decoded window
  int out_width = 0;
  int out_channels = 0;
};

// Recognises the format from magic bytes.
ImageFormat SniffFormat(const uint8_t* data, size_t size);

// Reads the header: size, native channels, EXIF orientation.
Status ProbeImage(const uint8_t* data, size_t size, ImageInfo* info);

// Validates the request against the header (limits, window bounds) and sizes the output.
Status PlanDecode(const uint8_t* data, size_t size, const DecodeRequest& request, DecodePlan* plan);

// As PlanDecode, from header facts already read (no second parse of the header).
Status PlanFromInfo(const ImageInfo& info, const DecodeRequest& request, DecodePlan* plan);

// Decodes into `out`, which holds plan.out_height * out_width * out_channels bytes.
Status ExecuteDecode(const uint8_t* data, size_t size, const DecodeRequest& request, const DecodePlan& plan,
                     uint8_t* out);

// Entropy-decodes a JPEG's whole scan without making pixels (about the Huffman decoding's
// share of a decode): an error naming the damage where a decode would fail on corrupt or
// missing data. For decoders that do not report it (nvJPEG; see image_decode_gpu.h).
Status CheckJpegEntropy(const uint8_t* data, size_t size);

// As ExecuteDecode, to 16-bit samples (`out` holds out_height * out_width * out_channels of
// them): 16-bit PNG, TIFF, PNM and JPEG 2000 keep their precision; 8-bit samples, and every
// other format, are widened by 257 (as tf.io.decode_png(dtype=uint16)).
Status ExecuteDecode16(const uint8_t* data, size_t size, const DecodeRequest& request, const DecodePlan& plan,
                       uint16_t* out);

// Rows of a decoded window `row_stride` bytes apart, the first pixel at `first`.
struct StridedPixels {
  const uint8_t* first = nullptr;
  long row_stride = 0;
};

// Decodes the plan's window for a reader of strided rows, into memory it allocates in
// `storage`. JPEGs that need no re-orientation keep their rows where libjpeg writes them,
// which saves copying every row; other images are decoded packed.
Status ExecuteDecodeStrided(const uint8_t* data, size_t size, const DecodeRequest& request,
                            const DecodePlan& plan, std::unique_ptr<uint8_t[]>* storage, StridedPixels* out);

// Animations (GIF, WebP): how many frames the file holds (1 for every other image), read
// without decoding pixels.
Status CountFrames(const uint8_t* data, size_t size, const ImageInfo& info, int* frames);

// Every frame, composited as a viewer shows it, into `out` ([frames, full_height, full_width,
// channels] of `plan`); other formats give their one image. The request must be a plain
// full-size decode (no window, dct_denom 1, no re-orientation).
Status ExecuteDecodeFrames(const uint8_t* data, size_t size, const DecodeRequest& request,
                           const DecodePlan& plan, uint8_t* out);

// Scaled size as libjpeg computes it: ceil(size / denom).
inline int ScaledSize(int size, int denom) { return (size + denom - 1) / denom; }

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_H_
