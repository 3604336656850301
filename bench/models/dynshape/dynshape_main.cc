// A dynamic-shape model against static models (issue 16): a model converted with a range in one input dim
// (atc --input_shape="x:1,32~256,768") and static models of the lengths drawn, on one random sequence of
// lengths. It reports, per length, the first execution at a length the model has not met (which compiles
// it; measured first, in a process that has compiled nothing else), then runs the sequence: each step the dynamic model (the shape given through
// aclmdlSetDatasetTensorDesc) and the static model of that length back to back, in alternating order.
// bench/models/model_bench.py runs it; collect.py derives dynshape_hit_over_static (target <= 1.10).
//
//   bench_dynshape <dynamic.om> <length>=<static.om> ... [--dim D] [--steps N] [--seed S]
//   prints {"hit_ms": mean per execution, "static_ms": ..., "first_seen_ms": {"<len>": ms, ...},
//           "static_first_ms": {...}, "hit_rate": executions that found their shape compiled / all,
//           "dynamic_mem_mib": device memory the dynamic model holds after every length,
//           "static_max_mem_mib": the static model of the largest length's, "steps": N,
//           "dynamic_load_ms": the dynamic model's load (which compiles its smallest shapes),
//           "static_load_ms": the longest static model's load}
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

[[noreturn]] void Die(const char* what) { npurt::bench::Die("bench_dynshape", what); }

void* DeviceRandom(size_t bytes, uint32_t seed) { return npurt::bench::DeviceRandom("bench_dynshape", bytes, seed); }

size_t UsedBytes() {
  size_t free_bytes = 0, total = 0;
  if (aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total) != ACL_SUCCESS) Die("aclrtGetMemInfo");
  return total - free_bytes;
}

// One model with its input [1, len, hidden] and output buffers of the largest length's size.
struct Model {
  uint32_t id = 0;
  aclmdlDataset* in = nullptr;
  aclmdlDataset* out = nullptr;
};

Model Load(const std::string& path, size_t in_bytes, size_t out_bytes) {
  Model m;
  if (aclmdlLoadFromFile(path.c_str(), &m.id) != ACL_SUCCESS) Die("aclmdlLoadFromFile");
  m.in = aclmdlCreateDataset();
  m.out = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(m.in, aclCreateDataBuffer(DeviceRandom(in_bytes, 7), in_bytes));
  aclmdlAddDatasetBuffer(m.out, aclCreateDataBuffer(DeviceRandom(out_bytes, 1), out_bytes));
  return m;
}

// The dynamic model at `len`: the input's shape in the dataset, its buffer's size the shape's bytes.
double RunDynamic(const Model& m, int64_t len, int64_t hidden) {
  const auto t0 = std::chrono::steady_clock::now();
  const int64_t dims[3] = {1, len, hidden};
  aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, 3, dims, ACL_FORMAT_ND);
  if (aclmdlSetDatasetTensorDesc(m.in, d, 0) != ACL_SUCCESS) Die("aclmdlSetDatasetTensorDesc");
  aclDestroyTensorDesc(d);
  aclDataBuffer* b = aclmdlGetDatasetBuffer(m.in, 0);
  aclUpdateDataBuffer(b, aclGetDataBufferAddr(b), static_cast<size_t>(len * hidden) * 4);
  if (aclmdlExecute(m.id, m.in, m.out) != ACL_SUCCESS) Die("aclmdlExecute (dynamic)");
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double RunStatic(const Model& m) {
  const auto t0 = std::chrono::steady_clock::now();
  if (aclmdlExecute(m.id, m.in, m.out) != ACL_SUCCESS) Die("aclmdlExecute (static)");
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  npurt::bench::SequenceArgs args;
  args.extra = 768;
  if (!npurt::bench::ParseSequenceArgs(argc, argv, "dim", &args) || args.extra <= 0) {
    std::fprintf(stderr, "usage: bench_dynshape <dynamic.om> <length>=<static.om> ... [--dim D] [--steps N] [--seed S]\n");
    return 2;
  }
  const std::string& dyn_path = args.model;
  std::map<int64_t, std::string>& statics = args.statics;
  const int steps = args.steps;
  const int64_t hidden = args.extra;
  const uint32_t seed = args.seed;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) Die("aclInit/aclrtSetDevice");
  const int64_t longest = statics.rbegin()->first;
  const size_t max_bytes = static_cast<size_t>(longest * hidden) * 4;

  // First sight of each length in a process that has compiled nothing yet (what a server meets: no static
  // model of the length warmed oneDNN's primitive cache), and the dynamic model's memory after every length.
  const size_t before_dynamic = UsedBytes();
  const auto load0 = std::chrono::steady_clock::now();
  Model dyn = Load(dyn_path, max_bytes, max_bytes);  // compiles its smallest shapes
  const double dynamic_load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - load0).count();
  std::map<int64_t, double> first_seen;
  for (const auto& [len, path] : statics) first_seen[len] = RunDynamic(dyn, len, hidden);
  const size_t dynamic_mem = UsedBytes() - before_dynamic;
  const uint64_t misses = statics.size();
  // The static models, each loaded and run once (the longest's memory measured alone).
  std::map<int64_t, Model> fixed;
  std::map<int64_t, double> static_first;
  const size_t base = UsedBytes();
  const auto sload0 = std::chrono::steady_clock::now();
  fixed[longest] = Load(statics[longest], max_bytes, max_bytes);
  const double static_load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sload0).count();
  static_first[longest] = RunStatic(fixed[longest]);
  const size_t static_max_mem = UsedBytes() - base;
  for (const auto& [len, path] : statics) {
    if (len == longest) continue;
    const size_t bytes = static_cast<size_t>(len * hidden) * 4;
    fixed[len] = Load(path, bytes, bytes);
    static_first[len] = RunStatic(fixed[len]);
  }

  std::mt19937 rng(seed);
  std::vector<int64_t> lengths;
  for (const auto& [len, path] : statics) lengths.push_back(len);
  double dyn_total = 0, static_total = 0;
  for (int s = 0; s < steps; ++s) {
    const int64_t len = lengths[rng() % lengths.size()];
    if (s % 2 == 0) {
      dyn_total += RunDynamic(dyn, len, hidden);
      static_total += RunStatic(fixed[len]);
    } else {
      static_total += RunStatic(fixed[len]);
      dyn_total += RunDynamic(dyn, len, hidden);
    }
  }
  std::string first = "{", static_first_text = "{";
  for (const auto& [len, ms] : first_seen) {
    first += (first.size() > 1 ? ", " : "") + std::string("\"") + std::to_string(len) + "\": " + std::to_string(ms);
    static_first_text += (static_first_text.size() > 1 ? ", " : "") + std::string("\"") + std::to_string(len) +
                         "\": " + std::to_string(static_first[len]);
  }
  first += "}";
  static_first_text += "}";
  // Every step after the first sight of its length found it compiled (the cache holds 32 shapes; the
  // smallest length, compiled at load, counts as a first sight all the same).
  const double hit_rate = static_cast<double>(steps) / static_cast<double>(steps + misses);
  std::printf("{\"hit_ms\": %.4f, \"static_ms\": %.4f, \"first_seen_ms\": %s, \"static_first_ms\": %s, "
              "\"hit_rate\": %.4f, \"dynamic_mem_mib\": %.2f, \"static_max_mem_mib\": %.2f, \"steps\": %d, "
              "\"dynamic_load_ms\": %.3f, \"static_load_ms\": %.3f}\n",
              dyn_total / steps, static_total / steps, first.c_str(), static_first_text.c_str(), hit_rate,
              static_cast<double>(dynamic_mem) / (1 << 20), static_cast<double>(static_max_mem) / (1 << 20), steps,
              dynamic_load_ms, static_load_ms);
  aclmdlUnload(dyn.id);
  for (auto& [len, m] : fixed) aclmdlUnload(m.id);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
