// CPU driver of the batched augment op for one sample: its K stages in sequence.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/augment.h"
#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Applies stages k = 0..num_stages-1 (ops[k], params[k], aux[2k..2k+1]) to `in` and writes
// `out`; `scratch` holds h * w * c bytes. Unknown op ids are an error.
Status AugmentSampleCpu(const uint8_t* in, const AugmentImage& image_info, const int32_t* ops,
                        const float* params, const float* aux, int num_stages, uint8_t* scratch,
                        uint8_t* out);

// One stage from src to dst (src != dst).
void AugmentStageCpu(int op, float param, const float* aux, const uint8_t* src,
                     const AugmentImage& image_info, uint8_t* dst);

// iso_noise's lightness statistics of an RGB(A) image into the stage's parameters.
void SetLightnessStatsCpu(const uint8_t* src, const AugmentImage& image_info, StageParams* stage_params);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_CPU_H_
