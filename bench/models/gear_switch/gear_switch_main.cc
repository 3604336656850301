// The cost of choosing a gear per execution (issue 16): a gear model (atc --dynamic_batch_size) and static
// models of the same batch sizes, run on one random sequence of batch sizes. Each step runs the gear model
// (aclmdlSetDynamicBatchSize + aclmdlExecute) and the static model of that batch back to back, in
// alternating order (drift on a shared machine falls on both alike). bench/models/model_bench.py runs it;
// collect.py derives gear_switch_over_static (target <= 1.05).
//
//   bench_gear_switch <gear.om> <batch>=<static.om> ... [--steps N] [--seed S]
//   prints {"gear_ms": mean per execution, "static_ms": ..., "steps": N}
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../bench_device.h"
#include "acl/acl.h"

namespace {

struct Model {
  uint32_t id = 0;
  aclmdlDesc* desc = nullptr;
  aclmdlDataset* in = nullptr;
  aclmdlDataset* out = nullptr;
};

[[noreturn]] void Die(const char* what) { npurt::bench::Die("bench_gear_switch", what); }

void* DeviceRandom(size_t bytes, uint32_t seed) { return npurt::bench::DeviceRandom("bench_gear_switch", bytes, seed); }

// Loads `path` with every input and output in device memory of the description's (largest) sizes.
Model Load(const std::string& path) {
  Model m;
  if (aclmdlLoadFromFile(path.c_str(), &m.id) != ACL_SUCCESS) Die("aclmdlLoadFromFile");
  m.desc = aclmdlCreateDesc();
  if (aclmdlGetDesc(m.desc, m.id) != ACL_SUCCESS) Die("aclmdlGetDesc");
  m.in = aclmdlCreateDataset();
  m.out = aclmdlCreateDataset();
  for (size_t i = 0; i < aclmdlGetNumInputs(m.desc); ++i) {
    const size_t n = aclmdlGetInputSizeByIndex(m.desc, i);
    aclmdlAddDatasetBuffer(m.in, aclCreateDataBuffer(DeviceRandom(n, 7 + static_cast<uint32_t>(i)), n));
  }
  for (size_t i = 0; i < aclmdlGetNumOutputs(m.desc); ++i) {
    const size_t n = aclmdlGetOutputSizeByIndex(m.desc, i);
    aclmdlAddDatasetBuffer(m.out, aclCreateDataBuffer(DeviceRandom(n, 1), n));
  }
  return m;
}

double TimeMs(const Model& m) {
  const auto t0 = std::chrono::steady_clock::now();
  if (aclmdlExecute(m.id, m.in, m.out) != ACL_SUCCESS) Die("aclmdlExecute");
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  npurt::bench::SequenceArgs args;
  if (!npurt::bench::ParseSequenceArgs(argc, argv, nullptr, &args)) {
    std::fprintf(stderr, "usage: bench_gear_switch <gear.om> <batch>=<static.om> ... [--steps N] [--seed S]\n");
    return 2;
  }
  const std::string& gear_path = args.model;
  std::map<uint64_t, std::string> statics;
  for (const auto& [batch, path] : args.statics) statics[static_cast<uint64_t>(batch)] = path;
  const int steps = args.steps;
  const uint32_t seed = args.seed;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) Die("aclInit/aclrtSetDevice");
  Model gear = Load(gear_path);
  std::map<uint64_t, Model> fixed;
  for (const auto& [batch, path] : statics) fixed[batch] = Load(path);
  size_t selector = 0;
  if (aclmdlGetInputIndexByName(gear.desc, ACL_DYNAMIC_TENSOR_NAME, &selector) != ACL_SUCCESS) {
    Die("the gear model has no " ACL_DYNAMIC_TENSOR_NAME " input: aclmdlGetInputIndexByName");
  }
  std::vector<uint64_t> batches;
  for (const auto& [batch, m] : fixed) batches.push_back(batch);
  auto run_gear = [&](uint64_t batch) {
    const auto t0 = std::chrono::steady_clock::now();
    if (aclmdlSetDynamicBatchSize(gear.id, gear.in, selector, batch) != ACL_SUCCESS) Die("aclmdlSetDynamicBatchSize");
    if (aclmdlExecute(gear.id, gear.in, gear.out) != ACL_SUCCESS) Die("aclmdlExecute (gear)");
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  for (uint64_t b : batches) {  // warm-up: every gear and every static model once
    run_gear(b);
    TimeMs(fixed[b]);
  }
  std::mt19937 rng(seed);
  double gear_total = 0, static_total = 0;
  for (int s = 0; s < steps; ++s) {
    const uint64_t b = batches[rng() % batches.size()];
    if (s % 2 == 0) {
      gear_total += run_gear(b);
      static_total += TimeMs(fixed[b]);
    } else {
      static_total += TimeMs(fixed[b]);
      gear_total += run_gear(b);
    }
  }
  std::printf("{\"gear_ms\": %.4f, \"static_ms\": %.4f, \"steps\": %d}\n", gear_total / steps, static_total / steps,
              steps);
  aclmdlUnload(gear.id);
  for (auto& [b, m] : fixed) aclmdlUnload(m.id);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
