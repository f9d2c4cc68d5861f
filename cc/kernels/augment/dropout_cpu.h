// CPU loops of the augment stages that replace bytes (channel_dropout, pixel_dropout,
// pixel_dropout_per_channel, salt_and_pepper): a copy, then the replaced bytes, with the
// per-pixel decisions made eight at a time where the CPU has AVX2. The bytes are those of the
// per-pixel functions of augment.h, which the CUDA kernel runs. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_DROPOUT_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_DROPOUT_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/augment.h"

namespace tfgpuaug {

void ChannelDropoutCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                       uint8_t* dst);

// pixel_dropout and pixel_dropout_per_channel (stage_params.op tells which).
void PixelDropoutCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                     uint8_t* dst);

void SaltAndPepperCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                      uint8_t* dst);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_DROPOUT_CPU_H_
