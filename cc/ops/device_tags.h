// Device tags for OpKernels templated on the device, as TensorFlow's image kernels are
// (validate once, then functor::Op<Device, T>): each op's class checks its inputs, shapes its
// outputs and allocates them once; only a launcher overloaded on the tag differs by device.
#ifndef TFGPUAUG_CC_OPS_DEVICE_TAGS_H_
#define TFGPUAUG_CC_OPS_DEVICE_TAGS_H_

namespace tfgpuaug {

struct CpuDevice {};
struct GpuDevice {};

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_DEVICE_TAGS_H_
