// What a batched stage reports about its data: the images it skipped with on_error="skip",
// warnings (boxes truncated to max_boxes, every box of a batch dropped), and the failure that
// names a bad image's file with on_error="raise".
//
// Reports go to stderr directly, not through TensorFlow's logging: TF_CPP_MIN_LOG_LEVEL=2,
// which many users set to quiet TensorFlow, would hide them, and they mean lost data. The
// process also keeps the latest reports for Python (`tfgpuaug.data_warnings()`).
#include <atomic>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <string>

#include "cc/ops/guarded_kernel.h"
#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

constexpr size_t kKeptReports = 1000;  // the latest reports Python can read back

std::atomic<int64_t> g_skipped{0};  // per process: each tf.data service worker counts its own

struct Reports {
  std::mutex mu;
  std::deque<std::string> latest;
  std::map<std::string, int64_t> warnings_by_key;
};

Reports& GlobalReports() {
  static Reports* reports = new Reports();  // never destroyed: ops may run during exit
  return *reports;
}

// A warning seen again and again is printed the first three times, then at 10, 100, 1000...
bool ShouldPrint(int64_t nth) {
  if (nth <= 3) return true;
  while (nth % 10 == 0) nth /= 10;
  return nth == 1;
}

void Report(const std::string& line, bool print) {
  Reports& reports = GlobalReports();
  std::lock_guard<std::mutex> lock(reports.mu);
  if (reports.latest.size() == kKeptReports) reports.latest.pop_front();
  reports.latest.push_back(line);
  if (print) std::fprintf(stderr, "%s\n", line.c_str());
}

REGISTER_OP("TfGpuAug>RecordSkipped")
    .Input("messages: string")
    .Input("batch: T")
    .Output("batch_out: T")
    .Output("total: int64")
    .Attr("T: type")
    .Attr("action: {'skip', 'warn', 'raise'} = 'skip'")
    .Attr("key: string = ''")
    // Not marked stateful: tf.data will not checkpoint an iterator over a function holding a
    // stateful op, and warns on every batch. Instead the batch flows through the op (no
    // copy), so it runs whenever the batch is produced.
    .SetShapeFn([](shape_inference::InferenceContext* c) {
      c->set_output(0, c->input(1));
      c->set_output(1, c->Scalar());
      return absl::OkStatus();
    })
    .Doc(R"doc(
Reports `messages` about the batch that passes through: action "skip" prints each (one per
skipped image) and adds their number to the process's count of skipped images; "warn" prints
them, the first three times and then at every power of ten of the warnings with the same
`key`; "raise" fails with InvalidArgument when there are any. `total` is the count of skipped
images so far.
)doc");

class RecordSkippedOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  explicit RecordSkippedOp(OpKernelConstruction* ctx) : ::tfgpuaug::GuardedOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("action", &action_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("key", &key_));
  }

  void ComputeGuarded(OpKernelContext* ctx) override {
    auto messages = ctx->input(0).flat<tstring>();
    const int64_t n = messages.size();
    if (action_ == "raise" && n > 0) {
      std::string text = messages(0);
      if (n > 1) text += " (and " + std::to_string(n - 1) + " more bad images in this batch)";
      ctx->SetStatus(errors::InvalidArgument(text));
      return;
    }
    int64_t total = g_skipped.load();
    if (action_ == "skip") {
      for (int64_t i = 0; i < n; ++i) Report("tfgpuaug skipped " + std::string(messages(i)), true);
      total = g_skipped.fetch_add(n) + n;
    } else if (action_ == "warn") {
      for (int64_t i = 0; i < n; ++i) {
        int64_t nth;
        {
          Reports& reports = GlobalReports();
          std::lock_guard<std::mutex> lock(reports.mu);
          nth = ++reports.warnings_by_key[key_];
        }
        std::string line = "tfgpuaug warning: " + std::string(messages(i));
        if (nth > 1) line += " [seen " + std::to_string(nth) + " times]";
        Report(line, ShouldPrint(nth));
      }
    }
    ctx->set_output(0, ctx->input(1));
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(1, TensorShape({}), &out));
    out->scalar<int64_t>()() = total;
  }

 private:
  std::string action_;
  std::string key_;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>RecordSkipped").Device(DEVICE_CPU), RecordSkippedOp);

REGISTER_OP("TfGpuAug>TakeDataReports")
    .Output("reports: string")
    .SetIsStateful()
    .SetShapeFn([](shape_inference::InferenceContext* c) {
      c->set_output(0, c->Vector(c->UnknownDim()));
      return absl::OkStatus();
    })
    .Doc(R"doc(
The latest reports of skipped images and data warnings (at most 1000) since the last call, oldest
first; the call clears them.
)doc");

class TakeDataReportsOp : public ::tfgpuaug::GuardedOpKernel {
 public:
  using ::tfgpuaug::GuardedOpKernel::GuardedOpKernel;

  void ComputeGuarded(OpKernelContext* ctx) override {
    std::deque<std::string> latest;
    {
      Reports& reports = GlobalReports();
      std::lock_guard<std::mutex> lock(reports.mu);
      latest.swap(reports.latest);
    }
    Tensor* out = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, TensorShape({static_cast<int64_t>(latest.size())}), &out));
    auto flat = out->flat<tstring>();
    for (size_t i = 0; i < latest.size(); ++i) flat(static_cast<int64_t>(i)) = latest[i];
  }
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>TakeDataReports").Device(DEVICE_CPU), TakeDataReportsOp);

}  // namespace
}  // namespace tensorflow
