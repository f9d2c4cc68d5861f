// Counting and logging the images a batched stage skipped with on_error="skip".
#include <atomic>

#include "cc/ops/guarded_kernel.h"
#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"
#include "tensorflow/core/platform/logging.h"

namespace tensorflow {
namespace {

std::atomic<int64_t> g_skipped{0};  // per process: each tf.data service worker counts its own

REGISTER_OP("TfGpuAug>RecordSkipped")
    .Input("messages: string")
    .Input("batch: T")
    .Output("batch_out: T")
    .Output("total: int64")
    .Attr("T: type")
    // Not marked stateful: tf.data will not checkpoint an iterator over a function holding a
    // stateful op, and warns on every batch. Instead the batch flows through the op (no
    // copy), so it runs whenever the batch is produced.
    .SetShapeFn([](shape_inference::InferenceContext* c) {
      c->set_output(0, c->input(1));
      c->set_output(1, c->Scalar());
      return absl::OkStatus();
    })
    .Doc(R"doc(
Logs each message (one per skipped image) as a warning and adds their number to the
process's count of skipped images; passes `batch` through and returns the count.
)doc");

class RecordSkippedOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit RecordSkippedOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {}

  void ComputeGuarded(OpKernelContext* ctx) override {
    auto messages = ctx->input(0).flat<tstring>();
    for (int64_t i = 0; i < messages.size(); ++i) {
      LOG(WARNING) << "tfgpuaug skipped " << messages(i);
    }
    const int64_t total = g_skipped.fetch_add(messages.size()) + messages.size();
    ctx->set_output(0, ctx->input(1));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({}), &out));
    out->scalar<int64_t>()() = total;
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RecordSkipped").Device(DEVICE_CPU), RecordSkippedOp);

}  // namespace
}  // namespace tensorflow
