// CPU loops of the noise stages drawn from the per-pixel stream (multiplicative_noise and its
// per-channel form, shot_noise). Their bytes are those of the per-pixel functions of augment.h,
// which the CUDA kernel runs. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_NOISE_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_NOISE_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/augment.h"

namespace tfgpuaug {

// multiplicative_noise and multiplicative_noise_per_channel (stage_params.op tells which): the
// AVX2 loop, else the per-pixel function.
void MultiplicativeNoiseCpu(const StageParams& stage_params, const uint8_t* src,
                            const AugmentImage& image_info, uint8_t* dst);

// The additive noise stages (uniform, normal, Laplace; a value a byte or a pixel): the
// per-pixel function over the image.
void AdditiveNoiseCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                      uint8_t* dst);

// shot_noise: ShotByte with its per-level numbers (Poisson mean, exp(-mean), the output level
// of each small count) from tables built once per image.
void ShotNoiseCpu(const StageParams& stage_params, const uint8_t* src, const AugmentImage& image_info,
                  uint8_t* dst);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_NOISE_CPU_H_
