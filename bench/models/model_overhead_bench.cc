// What a loaded model adds to the operators it runs (issue 15): a one-operator model (Add of two 1024-
// float inputs into one output) executed against the same operator executed alone, each on a stream and
// waited for.
//
// model_execute_us    aclmdlExecuteAsync + aclrtSynchronizeStream of the one-op model
// op_execute_us       aclopExecuteV2 of the same Add on the same buffers + aclrtSynchronizeStream
// collect.py derives model_execute_overhead_us = model_execute_us - op_execute_us (target <= 5 us).
#include <cstring>
#include <stdexcept>
#include <vector>

#include "acl/acl_op.h"
#include "common/bench_util.h"
#include "models/om/om_writer.h"

namespace npurt_bench {
namespace {

constexpr int64_t kN = 1024;

std::vector<uint8_t> OneOpModel() {
  npurt::om::ModelDef d;
  d.name = "one_add";
  d.soc_version = "Ascend910B1";
  for (int i = 0; i < 3; ++i) {
    npurt::om::TensorDef t;
    t.name = i == 0 ? "a" : i == 1 ? "b" : "sum";
    t.spec = npurt::TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {kN}};
    t.bytes = t.spec.bytes();
    t.region = i < 2 ? npurt::om::Region::kInput : npurt::om::Region::kOutput;
    t.io_index = i < 2 ? i : 0;
    d.tensors.push_back(t);
  }
  d.inputs = {0, 1};
  d.outputs = {2};
  npurt::om::NodeDef add;
  add.name = "add";
  add.source_type = "Add";
  add.op_type = "Add";
  add.inputs = {0, 1};
  add.outputs = {2};
  d.nodes = {add};
  auto file = npurt::om::SerializeModel(d, {});
  if (!file.ok()) throw std::runtime_error(file.status().message());
  return std::move(file).value();
}

struct Setup {
  uint32_t model = 0;
  void* buf[3] = {};
  aclDataBuffer* db[3] = {};
  aclmdlDataset* in = nullptr;
  aclmdlDataset* out = nullptr;
  aclTensorDesc* desc = nullptr;
};

const Setup& S() {
  static Setup s = [] {
    UseDevice0();
    Setup r;
    const std::vector<uint8_t> file = OneOpModel();
    BENCH_CHECK(aclmdlLoadFromMem(file.data(), file.size(), &r.model));
    std::vector<float> host(kN);
    for (int64_t i = 0; i < kN; ++i) host[i] = 0.25f * static_cast<float>(i % 97) + 1.0f;
    r.in = aclmdlCreateDataset();
    r.out = aclmdlCreateDataset();
    for (int i = 0; i < 3; ++i) {
      BENCH_CHECK(aclrtMalloc(&r.buf[i], kN * 4, ACL_MEM_MALLOC_HUGE_FIRST));
      BENCH_CHECK(aclrtMemcpy(r.buf[i], kN * 4, host.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE));
      r.db[i] = aclCreateDataBuffer(r.buf[i], kN * 4);
      BENCH_CHECK(aclmdlAddDatasetBuffer(i < 2 ? r.in : r.out, r.db[i]));
    }
    const int64_t dims[] = {kN};
    r.desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
    return r;
  }();
  return s;
}

void BM_model_execute_us(benchmark::State& state) {
  const Setup& s = S();
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  for (auto _ : state) {
    BENCH_CHECK(aclmdlExecuteAsync(s.model, s.in, s.out, stream));
    BENCH_CHECK(aclrtSynchronizeStream(stream));
  }
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(BM_model_execute_us)->Name("model_execute_us")->Unit(benchmark::kMicrosecond);

void BM_op_execute_us(benchmark::State& state) {
  const Setup& s = S();
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  const aclTensorDesc* in_desc[] = {s.desc, s.desc};
  aclTensorDesc* out_desc[] = {s.desc};
  aclDataBuffer* in[] = {s.db[0], s.db[1]};
  aclDataBuffer* out[] = {s.db[2]};
  for (auto _ : state) {
    BENCH_CHECK(aclopExecuteV2("Add", 2, const_cast<aclTensorDesc**>(in_desc), in, 1, out_desc, out, nullptr, stream));
    BENCH_CHECK(aclrtSynchronizeStream(stream));
  }
  BENCH_CHECK(aclrtDestroyStream(stream));
}
BENCHMARK(BM_op_execute_us)->Name("op_execute_us")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace npurt_bench
