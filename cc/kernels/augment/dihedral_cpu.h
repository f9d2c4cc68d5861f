// The CPU loop of the augment kernel's dihedral stage (the square's symmetries): rows copied or
// reversed, and a transpose in blocks of rows so each source cache line is read once. The
// bytes are DihedralSource's (augment.h), which the CUDA kernel runs. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_DIHEDRAL_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_DIHEDRAL_CPU_H_

#include <cstdint>

#include "cc/kernels/augment/augment.h"

namespace tfgpuaug {

void DihedralCpu(float param, const uint8_t* src, const AugmentImage& image_info, uint8_t* dst);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_DIHEDRAL_CPU_H_
