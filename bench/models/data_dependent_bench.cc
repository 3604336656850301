// Shapes that depend on the data (issue 16; docs/models.md, "Shapes that depend on the data"): what keeping them
// on the device costs. A model selects x's positive elements: x [65536] -> NonZero -> Squeeze -> Gather(x, .),
// whose NonZero count, and so the shapes of the Squeeze and the Gather, are known on the device only. Against the
// same Gather in a static model given the indices (what a program computes on the host without NonZero). x holds
// 512 to 32768 non-zero elements (the rest 0).
//
// data_dependent_select_us      the NonZero model, the same x every time (its slotted kernels are kept)
// data_dependent_new_count_us   the NonZero model, x cycling through 64 counts (more than the 16 kernels a slotted
//                               operator keeps: every execution tiles the Squeeze and the Gather anew)
// static_gather_us              the static Gather of the same count, indices given
// Each is aclmdlExecuteAsync + aclrtSynchronizeStream.
#include <stdexcept>
#include <vector>

#include "common/bench_util.h"
#include "models/om/om_writer.h"

namespace npurt_bench::data_dependent {
namespace {

constexpr int64_t kX = 65536;
constexpr int kCounts = 64;

npurt::om::TensorDef T(const char* name, int32_t dtype, std::vector<int64_t> dims, npurt::om::Region region,
                       uint64_t offset_or_index, int64_t slot = -1) {
  npurt::om::TensorDef t;
  t.name = name;
  t.spec = npurt::TensorSpec{dtype, ACL_FORMAT_ND, std::move(dims)};
  t.bytes = t.spec.bytes();
  t.region = region;
  if (region == npurt::om::Region::kArena) t.offset = offset_or_index;
  else t.io_index = static_cast<uint32_t>(offset_or_index);
  t.shape_slot = slot;
  return t;
}

npurt::om::NodeDef N(const char* name, const char* op, std::vector<int32_t> in, std::vector<int32_t> out,
                     npurt::AttrMap attrs = {}) {
  npurt::om::NodeDef n;
  n.name = name;
  n.source_type = op;
  n.op_type = op;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  n.attrs = std::move(attrs);
  return n;
}

uint32_t Load(npurt::om::ModelDef& d) {
  d.soc_version = "Ascend910B1";
  auto file = npurt::om::SerializeModel(d, {});
  if (!file.ok()) throw std::runtime_error(file.status().message());
  uint32_t id = 0;
  BENCH_CHECK(aclmdlLoadFromMem(file->data(), file->size(), &id));
  return id;
}

// x -> NonZero [1, n] -> Reshape(squeeze_axes 0) [n] -> Gather(x, .) [n], as atc writes it (slots after the
// planned buffers).
uint32_t SelectModel() {
  using R = npurt::om::Region;
  npurt::om::ModelDef d;
  d.name = "select_positive";
  const uint64_t slots = 16 * kX;
  d.tensors = {T("x", ACL_FLOAT, {kX}, R::kInput, 0), T("nz", ACL_INT64, {1, kX}, R::kArena, 0, slots),
               T("idx", ACL_INT64, {kX}, R::kArena, 8 * kX, slots + 16), T("y", ACL_FLOAT, {kX}, R::kOutput, 0, slots + 24)};
  d.inputs = {0};
  d.outputs = {3};
  d.nodes = {N("nonzero", "NonZero", {0}, {1}), N("squeeze", "Reshape", {1}, {2}, {{"squeeze_axes", std::vector<int64_t>{0}}}),
             N("gather", "Gather", {0, 2}, {3}, {{"axis", int64_t{0}}})};
  d.arena_size = slots + 64;
  return Load(d);
}

// y = Gather(x, idx) with idx an input of `count` indices.
uint32_t StaticGatherModel(int64_t count) {
  using R = npurt::om::Region;
  npurt::om::ModelDef d;
  d.name = "static_gather";
  d.tensors = {T("x", ACL_FLOAT, {kX}, R::kInput, 0), T("idx", ACL_INT64, {count}, R::kInput, 1),
               T("y", ACL_FLOAT, {count}, R::kOutput, 0)};
  d.inputs = {0, 1};
  d.outputs = {2};
  d.nodes = {N("gather", "Gather", {0, 1}, {2}, {{"axis", int64_t{0}}})};
  return Load(d);
}

struct Buffers {
  std::vector<void*> xs;  // kCounts inputs: x with (k + 1) * 512 positives
  void* idx = nullptr;
  void* y = nullptr;
  std::vector<int64_t> positives;  // of xs[0]
};

const Buffers& B() {
  static Buffers b = [] {
    UseDevice0();
    Buffers r;
    for (int k = 0; k < kCounts; ++k) {
      std::vector<float> x(kX);
      const int64_t want = (k + 1) * 512;
      for (int64_t i = 0; i < kX; ++i) x[i] = (i * 7919) % kX < want ? 1.0f + static_cast<float>(i % 13) : 0.0f;
      if (k == 0) {
        for (int64_t i = 0; i < kX; ++i) {
          if (x[i] > 0) r.positives.push_back(i);
        }
      }
      void* p = nullptr;
      BENCH_CHECK(aclrtMalloc(&p, kX * 4, ACL_MEM_MALLOC_HUGE_FIRST));
      BENCH_CHECK(aclrtMemcpy(p, kX * 4, x.data(), kX * 4, ACL_MEMCPY_HOST_TO_DEVICE));
      r.xs.push_back(p);
    }
    BENCH_CHECK(aclrtMalloc(&r.idx, kX * 8, ACL_MEM_MALLOC_HUGE_FIRST));
    BENCH_CHECK(aclrtMemcpy(r.idx, kX * 8, r.positives.data(), r.positives.size() * 8, ACL_MEMCPY_HOST_TO_DEVICE));
    BENCH_CHECK(aclrtMalloc(&r.y, kX * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    return r;
  }();
  return b;
}

aclmdlDataset* Dataset(std::vector<std::pair<void*, size_t>> bufs) {
  aclmdlDataset* d = aclmdlCreateDataset();
  for (auto [p, n] : bufs) BENCH_CHECK(aclmdlAddDatasetBuffer(d, aclCreateDataBuffer(p, n)));
  return d;
}

void DestroyDataset(aclmdlDataset* d) {
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(d); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(d, i));
  aclmdlDestroyDataset(d);
}

void RunSelect(benchmark::State& state, bool cycle) {
  const Buffers& b = B();
  const uint32_t model = SelectModel();
  std::vector<aclmdlDataset*> ins;
  for (void* x : b.xs) ins.push_back(Dataset({{x, kX * 4}}));
  aclmdlDataset* out = Dataset({{b.y, kX * 4}});
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  size_t k = 0;
  for (auto _ : state) {
    BENCH_CHECK(aclmdlExecuteAsync(model, ins[cycle ? k++ % ins.size() : 0], out, stream));
    BENCH_CHECK(aclrtSynchronizeStream(stream));
  }
  BENCH_CHECK(aclrtDestroyStream(stream));
  for (aclmdlDataset* d : ins) DestroyDataset(d);
  DestroyDataset(out);
  BENCH_CHECK(aclmdlUnload(model));
}

void BM_data_dependent_select_us(benchmark::State& state) { RunSelect(state, false); }
BENCHMARK(BM_data_dependent_select_us)->Name("data_dependent_select_us")->Unit(benchmark::kMicrosecond);

void BM_data_dependent_new_count_us(benchmark::State& state) { RunSelect(state, true); }
BENCHMARK(BM_data_dependent_new_count_us)->Name("data_dependent_new_count_us")->Unit(benchmark::kMicrosecond);

void BM_static_gather_us(benchmark::State& state) {
  const Buffers& b = B();
  const auto count = static_cast<int64_t>(b.positives.size());
  const uint32_t model = StaticGatherModel(count);
  aclmdlDataset* in = Dataset({{b.xs[0], kX * 4}, {b.idx, static_cast<size_t>(count) * 8}});
  aclmdlDataset* out = Dataset({{b.y, static_cast<size_t>(count) * 4}});
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  for (auto _ : state) {
    BENCH_CHECK(aclmdlExecuteAsync(model, in, out, stream));
    BENCH_CHECK(aclrtSynchronizeStream(stream));
  }
  BENCH_CHECK(aclrtDestroyStream(stream));
  DestroyDataset(in);
  DestroyDataset(out);
  BENCH_CHECK(aclmdlUnload(model));
}
BENCHMARK(BM_static_gather_us)->Name("static_gather_us")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace npurt_bench::data_dependent
