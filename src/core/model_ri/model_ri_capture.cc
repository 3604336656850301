#include "core/model_ri/model_ri_capture.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"

namespace npurt::core {
namespace {

struct ActiveCapture {
  ModelRI* graph;
  CaptureMode mode;
  uint64_t thread;
};

// Captures are rare and short-lived next to the calls that check them: a count lets the unsafe-call
// check skip the lock while none is active.
std::atomic<uint32_t> g_active{0};
std::mutex g_mu;
std::vector<ActiveCapture> g_captures;  // g_mu
std::atomic<uint64_t> g_next_thread{0};
thread_local CaptureMode t_mode = CaptureMode::kGlobal;
thread_local uint64_t t_thread = 0;

}  // namespace

uint64_t CaptureThreadId() {
  if (t_thread == 0) t_thread = g_next_thread.fetch_add(1, std::memory_order_relaxed) + 1;
  return t_thread;
}

CaptureMode ExchangeThreadMode(CaptureMode mode) {
  const CaptureMode old = t_mode;
  t_mode = mode;
  return old;
}

void RegisterCapture(ModelRI* graph, CaptureMode mode) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_captures.push_back({graph, mode, CaptureThreadId()});
  g_active.fetch_add(1, std::memory_order_release);
}

void UnregisterCapture(ModelRI* graph) {
  std::lock_guard<std::mutex> lock(g_mu);
  for (size_t i = 0; i < g_captures.size(); ++i) {
    if (g_captures[i].graph == graph) {
      g_captures[i] = g_captures.back();
      g_captures.pop_back();
      g_active.fetch_sub(1, std::memory_order_release);
      return;
    }
  }
}

Status CheckCaptureSafe(const char* what, int32_t code) {
  if (g_active.load(std::memory_order_acquire) == 0 || t_mode == CaptureMode::kRelaxed) return Status::Ok();
  const uint64_t self = CaptureThreadId();
  std::vector<ModelRI*> own;
  bool refused = false;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    for (const ActiveCapture& c : g_captures) {
      if (c.thread == self && c.mode != CaptureMode::kRelaxed) {
        refused = true;
        own.push_back(c.graph);
        c.graph->Retain();
      } else if (c.thread != self && c.mode == CaptureMode::kGlobal && t_mode == CaptureMode::kGlobal) {
        refused = true;
      }
    }
  }
  if (!refused) return Status::Ok();
  Status st = Err(code, "{} is not allowed while a model capture is active in a mode that forbids it (use "
                  "ACL_MODEL_RI_CAPTURE_MODE_RELAXED or aclmdlRICaptureThreadExchangeMode)", what);
  for (ModelRI* g : own) {
    g->Invalidate(code, st.message());
    g->Release();
  }
  return st;
}

}  // namespace npurt::core
