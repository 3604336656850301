// A dynamic-shape model's specialising thread (loaded_model.h, SpecializeJob). A new shape's operators
// re-tile the kernels their families got at earlier shapes (fast to meet: no code generated), but re-tiled
// code runs a little slower than code generated for the shapes (oneDNN's runtime-dims GEMM against its
// shape-specialised kernels). So when a shape recurs, its re-tiled operators are compiled for it here, off the
// executing thread, and the next execution at that shape re-records it with them.
#include <fmt/ranges.h>

#include "core/context.h"
#include "core/device.h"
#include "core/operators.h"
#include "dfx/log.h"
#include "models/runtime/loaded_model.h"

namespace npurt::models {

void LoadedModel::QueueSpecialization(ShapeVariant* v) {
  v->specializing = true;
  SpecializeJob job;
  job.dims = v->dims;
  job.def = std::make_shared<const om::ModelDef>(v->def);
  const bool host_visible = context_->device()->info().caps.host_visible_memory;
  for (size_t i = 0; i < v->programs.retiled.size(); ++i) {
    if (!v->programs.retiled[i]) continue;
    job.nodes.push_back(i);
    job.specs.push_back(SpecsOf(v->def, v->def.nodes[i], weights_, host_visible));
  }
  if (job.nodes.empty()) return;
  StartSpecializing();
  std::lock_guard<std::mutex> lock(spec_mu_);
  if (spec_stop_) return;
  spec_queue_.push_back(std::move(job));
  spec_cv_.notify_one();
}

void LoadedModel::StartSpecializing() {
  std::lock_guard<std::mutex> lock(spec_mu_);
  if (spec_thread_.joinable() || spec_stop_) return;
  spec_thread_ = std::thread([this] {
    // Re-tiled kernels' code generator, ready before the first new shape needs it (once per process).
    if (core::KernelRetileEnabled()) core::WarmOperatorBackend();
    SpecializeLoop();
  });
}

void LoadedModel::SpecializeLoop() {
  for (;;) {
    SpecializeJob job;
    {
      std::unique_lock<std::mutex> lock(spec_mu_);
      spec_cv_.wait(lock, [&] { return spec_stop_ || !spec_queue_.empty(); });
      if (spec_stop_) return;
      job = std::move(spec_queue_.front());
      spec_queue_.pop_front();
    }
    job.built.resize(job.def->nodes.size());
    for (size_t k = 0; k < job.nodes.size(); ++k) {
      {
        std::lock_guard<std::mutex> lock(spec_mu_);
        if (spec_stop_) return;  // the model is going: its weights may not outlive this build
      }
      const om::NodeDef& n = job.def->nodes[job.nodes[k]];
      const NodeCallSpecs& specs = job.specs[k];
      core::OperatorCall call{n.op_type, &specs.in, &specs.out, &n.attrs, true,
                              specs.any_constant ? &specs.constants : nullptr};
      call.specialize = true;
      auto built = core::BuildOperatorCached(call);
      if (!built.ok() || built.value().program == nullptr) {
        // The re-tiled kernel computes the same: it stays.
        NPURT_LOG_WARNING("MODEL", "model {}: compiling node {} ({}) for shapes {} failed ({}); its re-tiled kernel "
                          "stays", id_, n.name, n.op_type, fmt::join(job.dims, " "),
                          built.ok() ? std::string("no program") : built.status().message());
        continue;
      }
      job.built[job.nodes[k]] = std::move(built.value().program);
    }
    std::lock_guard<std::mutex> lock(spec_mu_);
    spec_done_.push_back(std::move(job));
    spec_ready_.store(true, std::memory_order_release);
  }
}

void LoadedModel::AdoptSpecialized() {
  if (!spec_ready_.load(std::memory_order_acquire)) return;  // every execution asks: no lock unless there is work
  std::vector<SpecializeJob> done;
  {
    std::lock_guard<std::mutex> lock(spec_mu_);
    done.swap(spec_done_);
    spec_ready_.store(false, std::memory_order_relaxed);
  }
  for (SpecializeJob& job : done) {
    auto it = variants_.find(job.dims);
    if (it == variants_.end()) continue;  // evicted meanwhile
    ShapeVariant* v = it->second.get();
    if (v->programs.programs.size() != job.built.size()) continue;
    size_t adopted = 0;
    for (size_t i = 0; i < job.built.size(); ++i) {
      if (job.built[i] == nullptr) continue;
      v->programs.programs[i] = std::move(job.built[i]);
      v->programs.retiled[i] = false;
      ++adopted;
    }
    if (adopted == 0) continue;
    DropRecording(v);  // re-recorded with them when next used (its replays in flight keep the old programs)
    {
      std::lock_guard<std::mutex> lock(stats_mu_);
      stats_.ops_specialized += adopted;
    }
    NPURT_LOG_INFO("MODEL", "model {}: shapes {} met again: {} re-tiled operators compiled for them", id_,
                   fmt::join(job.dims, " "), adopted);
  }
}

void LoadedModel::StopSpecializing() {
  {
    std::lock_guard<std::mutex> lock(spec_mu_);
    spec_stop_ = true;
  }
  spec_cv_.notify_all();
  if (spec_thread_.joinable()) spec_thread_.join();
}

}  // namespace npurt::models
