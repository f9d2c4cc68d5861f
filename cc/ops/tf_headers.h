// The TensorFlow headers most op adapters include. Parsing them is ~90% of an adapter's
// compile time, so build_tools/native_build.py precompiles this header once per build and
// force-includes it (-include) in every cc/ops source; it adds nothing the sources do not
// already include themselves.
#ifndef TFGPUAUG_CC_OPS_TF_HEADERS_H_
#define TFGPUAUG_CC_OPS_TF_HEADERS_H_

#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

#endif  // TFGPUAUG_CC_OPS_TF_HEADERS_H_
