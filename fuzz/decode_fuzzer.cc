// libFuzzer target over cc/kernels decoding (no TensorFlow): every input must either
// decode or return an error Status; ASan/UBSan report anything else.
//
// The first 4 bytes choose the request (channels, DCT scale, window, orientation,
// resize method); the rest is the encoded image. Built by fuzz/build_libfuzzer.sh, once for
// every format (decode_fuzzer) and once per format with TFGPUAUG_FUZZ_FORMAT set to its
// ImageFormat number (decode_fuzzer_<format>), which rejects inputs of other formats so that
// mutations stay inside the format its dictionary and seeds describe.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cc/kernels/decode/decode_crop_resize.h"
#include "cc/kernels/decode/image_decode.h"

namespace {

using tfgpuaug::CropBox;
using tfgpuaug::DecodePlan;
using tfgpuaug::DecodeRequest;

constexpr int64_t kMaxPixels = int64_t{1} << 22;  // keep each run fast and small

DecodeRequest RequestFrom(const uint8_t* knobs) {
  static const int kChannels[4] = {1, 3, 4, 3};
  static const int kDenoms[4] = {1, 2, 4, 8};
  DecodeRequest r;
  r.channels = kChannels[knobs[0] & 3];
  r.dct_denom = kDenoms[(knobs[0] >> 2) & 3];
  r.dct_method = static_cast<tfgpuaug::DctMethod>((knobs[0] >> 4) % 3);
  r.apply_exif_orientation = (knobs[0] & 0x40) != 0;
  r.max_pixels = kMaxPixels;
  return r;
}

// A window inside the planned full image, from two knob bytes (or none).
void ChooseWindow(uint8_t a, uint8_t b, const DecodePlan& full, DecodeRequest* r) {
  if ((a & 1) == 0 || full.full_height < 1 || full.full_width < 1) return;
  r->has_window = true;
  r->window.y = (a >> 1) % full.full_height;
  r->window.x = b % full.full_width;
  r->window.height = 1 + (b >> 1) % (full.full_height - r->window.y);
  r->window.width = 1 + (a >> 2) % (full.full_width - r->window.x);
}

// Every frame of an animation (GIF, WebP; one frame for the rest), bounded like the op.
void FuzzDecodeFrames(const uint8_t* knobs, const uint8_t* data, size_t size) {
  DecodeRequest request;
  request.channels = RequestFrom(knobs).channels;
  request.max_pixels = kMaxPixels;
  DecodePlan plan;
  int frames = 0;
  if (!tfgpuaug::PlanDecode(data, size, request, &plan).ok()) return;
  if (!tfgpuaug::CountFrames(data, size, plan.info, &frames).ok()) return;
  const int64_t bytes = int64_t{frames} * plan.out_height * plan.out_width * plan.out_channels;
  if (bytes > (int64_t{1} << 24)) return;
  std::vector<uint8_t> out(static_cast<size_t>(bytes));
  (void)tfgpuaug::ExecuteDecodeFrames(data, size, request, plan, out.data());
}

void FuzzDecode(const uint8_t* knobs, const uint8_t* data, size_t size) {
  DecodeRequest request = RequestFrom(knobs);
  if ((knobs[3] & 0x30) == 0x30) {  // one input in four also decodes all frames
    FuzzDecodeFrames(knobs, data, size);
  }
  DecodePlan plan;
  if (!tfgpuaug::PlanDecode(data, size, request, &plan).ok()) return;
  ChooseWindow(knobs[1], knobs[2], plan, &request);
  if (!tfgpuaug::PlanDecode(data, size, request, &plan).ok()) return;
  const size_t samples = static_cast<size_t>(plan.out_height) * plan.out_width * plan.out_channels;
  if (knobs[3] & 0x08) {  // 16-bit output: the deep-sample paths of PNG, PNM, TIFF, JPEG 2000
    std::vector<uint16_t> wide(samples);
    (void)tfgpuaug::ExecuteDecode16(data, size, request, plan, wide.data());
    return;
  }
  std::vector<uint8_t> out(samples);
  (void)tfgpuaug::ExecuteDecode(data, size, request, plan, out.data());
}

void FuzzDecodeCropResize(const uint8_t* knobs, const uint8_t* data, size_t size) {
  DecodeRequest request = RequestFrom(knobs);
  request.dct_denom = 1;
  tfgpuaug::ImageInfo info;
  if (!tfgpuaug::ProbeImage(data, size, &info).ok()) return;
  DecodePlan plan;
  if (!tfgpuaug::PlanFromInfo(info, request, &plan).ok()) return;
  const float h = static_cast<float>(plan.full_height), w = static_cast<float>(plan.full_width);
  const float fy = (knobs[1] & 15) / 16.f, fx = (knobs[1] >> 4) / 16.f;
  CropBox box{fy * h, fx * w, (1.f - fy) * h * (1 + (knobs[2] & 3)) / 4.f,
              (1.f - fx) * w * (1 + ((knobs[2] >> 2) & 3)) / 4.f};
  const int out_size = 1 + knobs[3] % 48;
  tfgpuaug::ResizeSpec spec{out_size, out_size, static_cast<tfgpuaug::ResizeMethod>(knobs[3] >> 6),
                            (knobs[2] & 0x80) != 0};
  tfgpuaug::Epilogue epilogue;
  epilogue.mirror = (knobs[2] & 0x40) != 0;
  std::vector<uint8_t> out(static_cast<size_t>(out_size) * out_size * request.channels);
  tfgpuaug::DecodedCrop crop;
  if (!tfgpuaug::DecodeCrop(data, size, request, box, spec, 1 << ((knobs[2] >> 4) & 3), &crop).ok()) {
    return;
  }
  tfgpuaug::ResampleCrop(crop, spec, epilogue, out.data());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
#ifdef TFGPUAUG_FUZZ_FORMAT
  if (tfgpuaug::SniffFormat(data + 4, size - 4) != static_cast<tfgpuaug::ImageFormat>(TFGPUAUG_FUZZ_FORMAT)) {
    return -1;  // not this target's format: kept out of its corpus
  }
#endif
  tfgpuaug::ImageInfo info;
  (void)tfgpuaug::ProbeImage(data + 4, size - 4, &info);
  if (data[0] & 0x80) {
    FuzzDecodeCropResize(data, data + 4, size - 4);
  } else {
    FuzzDecode(data, data + 4, size - 4);
  }
  return 0;
}
