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

#include "acl/acl.h"

namespace {

struct Model {
  uint32_t id = 0;
  aclmdlDesc* desc = nullptr;
  aclmdlDataset* in = nullptr;
  aclmdlDataset* out = nullptr;
};

[[noreturn]] void Die(const char* what) {
  const char* m = aclGetRecentErrMsg();
  std::fprintf(stderr, "bench_gear_switch: %s failed: %s\n", what, m != nullptr ? m : "");
  std::exit(1);
}

void* DeviceRandom(size_t bytes, uint32_t seed) {
  void* p = nullptr;
  if (aclrtMalloc(&p, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) Die("aclrtMalloc");
  std::vector<float> host(bytes / 4);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& v : host) v = u(gen);
  if (!host.empty() && aclrtMemcpy(p, bytes, host.data(), host.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    Die("aclrtMemcpy");
  }
  return p;
}

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
  std::string gear_path;
  std::map<uint64_t, std::string> statics;
  int steps = 40;
  uint32_t seed = 2026;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--steps" && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else if (a == "--seed" && i + 1 < argc) {
      seed = static_cast<uint32_t>(std::atoi(argv[++i]));
    } else if (a.find('=') != std::string::npos) {
      statics[std::strtoull(a.c_str(), nullptr, 10)] = a.substr(a.find('=') + 1);
    } else {
      gear_path = a;
    }
  }
  if (gear_path.empty() || statics.empty() || steps <= 0) {
    std::fprintf(stderr, "usage: bench_gear_switch <gear.om> <batch>=<static.om> ... [--steps N] [--seed S]\n");
    return 2;
  }
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
